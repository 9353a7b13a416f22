"""How the console shows metrics: formatted values, server-drawn SVG line charts, dashboard alerts."""
import math
from dataclasses import dataclass, field

from recall_site.config import recall_setting

CHART_WIDTH, CHART_HEIGHT = 560, 170
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 52, 26, 12, 26
NICE_STEPS = (1, 2, 2.5, 5, 10)
X_LABEL_EVERY = 3

# Per metric: shown as a percentage?, and which config thresholds to draw as reference lines.
METRIC_STYLE = {
    "entity_coverage": (True, [("coverage_warn_below", "target"), ("coverage_alert_below", "alert")]),
    "avg_memories_per_regular_entity": (False, [("target_avg_memories_per_entity", "target"),
                                                ("weak_avg_memories_per_entity", "alert")]),
    "entities_created": (False, []),
    "hard_delete_requests": (False, [("hard_delete_requests_warn", "warn")]),
    "preference_supersession_rate": (True, [("supersession_rate_max", "alert"),
                                            ("supersession_rate_near_zero", "warn")]),
    "unresolved_reference_rate": (True, [("unresolved_rate_warn", "warn"), ("unresolved_rate_alert", "alert")]),
}
ALERTING_METRICS = ("unresolved_reference_rate", "preference_supersession_rate")


@dataclass
class Chart:
    width: int = CHART_WIDTH
    height: int = CHART_HEIGHT
    segments: list[str] = field(default_factory=list)  # polyline point lists, broken where no value
    dots: list[dict] = field(default_factory=list)
    lines: list[dict] = field(default_factory=list)
    x_labels: list[dict] = field(default_factory=list)
    y_ticks: list[dict] = field(default_factory=list)
    plot_left: int = PAD_LEFT
    plot_right: int = CHART_WIDTH - PAD_RIGHT
    plot_bottom: int = CHART_HEIGHT - PAD_BOTTOM


def format_value(value, percent: bool) -> str:
    if value is None:
        return "—"
    if percent:
        return f"{value * 100:.1f} %"
    return f"{value:g}" if isinstance(value, int) or float(value).is_integer() else f"{value:.2f}"


def metric_panels(current: dict, series: list[dict]) -> list[dict]:
    """One panel per metric: current value and level, target text, and a 12-week chart."""
    panels = []
    for key, metric in current.items():
        percent, threshold_keys = METRIC_STYLE.get(key, (False, []))
        points = [(week["week_start"], week["metrics"].get(key, {}).get("value")) for week in series]
        thresholds = [(recall_setting(f"metrics.{name}"), kind) for name, kind in threshold_keys]
        panels.append({
            "key": key, "label": metric["label"], "target": metric["target"], "level": metric["level"],
            "value_text": format_value(metric["value"], percent), "has_data": metric["value"] is not None,
            "chart": line_chart(points, thresholds, percent),
            "weeks": [{"week": week, "text": format_value(value, percent)} for week, value in points],
        })
    return panels


def line_chart(points: list[tuple[str, float | None]], thresholds: list[tuple[float, str]], percent: bool) -> Chart:
    chart = Chart()
    values = [value for _, value in points if value is not None]
    top = _nice_top(max(values + [limit for limit, _ in thresholds] + [0]) * 1.1) or (0.2 if percent else 1)
    width = chart.plot_right - chart.plot_left
    height = chart.plot_bottom - PAD_TOP
    step = width / max(len(points) - 1, 1)

    def y_of(value):
        return round(chart.plot_bottom - value / top * height, 1)

    segment: list[str] = []
    for index, (week, value) in enumerate(points):
        x = round(chart.plot_left + index * step, 1)
        if index % X_LABEL_EVERY == (len(points) - 1) % X_LABEL_EVERY:
            chart.x_labels.append({"x": x, "text": week[5:]})
        if value is None:
            segment = _close(chart, segment)
            continue
        segment.append(f"{x},{y_of(value)}")
        chart.dots.append({"x": x, "y": y_of(value), "title": f"week of {week}: {format_value(value, percent)}"})
    _close(chart, segment)
    chart.lines = [{"y": y_of(limit), "kind": kind, "text": format_value(limit, percent)} for limit, kind in thresholds]
    chart.y_ticks = [{"y": y_of(top * share), "text": _tick_text(top * share, percent)} for share in (0, 0.5, 1)]
    return chart


def _tick_text(value: float, percent: bool) -> str:
    if percent:
        return f"{value * 100:.0f} %" if value == 0 or value >= 0.02 else f"{value * 100:.1f} %"
    return f"{value:g}"


def _nice_top(value: float) -> float:
    """The smallest 1/2/2.5/5 × 10^k at or above value (0 stays 0), so axis ticks read well."""
    if value <= 0:
        return 0
    scale = 10 ** math.floor(math.log10(value))
    return next(step * scale for step in NICE_STEPS if step * scale >= value)


def _close(chart: Chart, segment: list[str]) -> list[str]:
    if segment:
        chart.segments.append(" ".join(segment))
    return []


def dashboard_alerts(current: dict, drifted_count: int) -> list[dict]:
    """Alerts for the dashboard: unresolved references, supersession out of band, drift flags."""
    alerts = []
    for key in ALERTING_METRICS:
        metric = current.get(key)
        if metric and metric["level"] != "ok":
            alerts.append({"level": metric["level"], "title": metric["label"], "text": _alert_text(key, metric),
                           "href": "/metrics/", "link_text": "See the trend"})
    if drifted_count:
        # A question the review queue asks (and counts), not a fault: shown as a note, not a warning.
        alerts.append({"level": "info", "title": "Entity drift",
                       "text": f"{drifted_count} entit{'y' if drifted_count == 1 else 'ies'} changed a lot since "
                               "Recall first met them and wait for your confirmation.",
                       "href": "/review/", "link_text": "Review them"})
    return alerts


def _alert_text(key: str, metric: dict) -> str:
    value = format_value(metric["value"], True)
    if key == "unresolved_reference_rate":
        return (f"{value} of this week's mentions did not resolve to a known person or thing "
                f"(target {metric['target']}): the alias tables need enrichment.")
    if metric["value"] < recall_setting("metrics.supersession_rate_near_zero"):
        return (f"is near zero ({value} this week): the assistant may not be seeing new preference signals — "
                "check whether pre_filter is too strict.")
    return (f"is {value} this week (target {metric['target']}): preferences are noisy or extraction "
            "over-generates them.")
