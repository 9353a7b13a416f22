import os, re, sys, time, random, collections
import bench_path  # noqa
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "recall_site.settings")
os.environ.setdefault("DEBUG", "false")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
import django
django.setup()
import logging; logging.getLogger("django-q").setLevel(logging.WARNING)
from django.conf import settings
from django.db import connection
import ingest as _b
sys.path.insert(0, "bench")
import importlib.util
spec = importlib.util.spec_from_file_location("ib", "bench/ingest.py"); ib = importlib.util.module_from_spec(spec); spec.loader.exec_module(ib)
connection.settings_dict["TEST"]["NAME"] = "bench_recall_ingest"
settings.RECALL["memory_semantic"]["background_embedding_enabled"] = True
if not connection.settings_dict["OPTIONS"].get("pool"):
    connection.settings_dict["CONN_MAX_AGE"] = 60
import torch; torch.set_num_threads(1)
old = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
stats = collections.defaultdict(lambda: [0, 0.0])
def wrapper(execute, sql, params, many, context):
    t = time.perf_counter()
    try:
        return execute(sql, params, many, context)
    finally:
        key = re.sub(r"\s+", " ", sql)[:110]
        s = stats[key]; s[0] += 1; s[1] += time.perf_counter() - t
try:
    from ingest.pipeline.tag_domain import domain_centroids
    domain_centroids()
    rows = ib.generate(int(sys.argv[1]) if len(sys.argv) > 1 else 1000, random.Random(7))
    with connection.execute_wrapper(wrapper):
        el, lat, out = ib.run(rows, user_id="bench-single", per_call=1)
    print(f"{len(rows)/el:.0f} msg/s")
    tot = sum(v[1] for v in stats.values())
    print(f"sql total {tot:.1f}s of {el:.1f}s, statements {sum(v[0] for v in stats.values())}")
    for k, v in sorted(stats.items(), key=lambda kv: -kv[1][1])[:30]:
        print(f"{v[1]*1000:8.0f} ms {v[0]:6d} {v[1]/v[0]*1000:6.2f}  {k}")
finally:
    connection.creation.destroy_test_db(old, verbosity=0)
