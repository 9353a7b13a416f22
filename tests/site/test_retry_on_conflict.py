"""A real deadlock between two transactions: PostgreSQL aborts one, and retry_on_conflict runs it again."""
import threading

import pytest
from django.db import OperationalError, connection, transaction

from memories.models import Memory
from recall_site.locks import retry_on_conflict
from tests import factories


def lock_in_order(first: int, second: int, both_hold_one: threading.Barrier, attempts: list) -> None:
    """Lock row `first`, wait until the other thread holds its first row, then lock `second`."""
    attempts.append(1)
    with transaction.atomic():
        Memory.objects.select_for_update().get(pk=first)
        if len(attempts) <= 2:  # the first try of each thread meets the other's: a deadlock
            both_hold_one.wait(timeout=10)
        Memory.objects.select_for_update().get(pk=second)


def crossing(a: int, b: int, retry: bool) -> tuple[list, list]:
    both_hold_one, attempts, errors = threading.Barrier(2), [], []

    def run(first, second):
        try:
            work = lambda: lock_in_order(first, second, both_hold_one, attempts)  # noqa: E731
            retry_on_conflict(work) if retry else work()
        except OperationalError as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=pair) for pair in ((a, b), (b, a))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return attempts, errors


@pytest.mark.django_db(transaction=True)
def test_a_deadlocked_transaction_is_run_again_and_succeeds():
    a, b = factories.memory(content="first row").pk, factories.memory(content="second row").pk
    attempts, errors = crossing(a, b, retry=True)
    assert errors == [] and len(attempts) == 3  # both first tries, then the aborted one once more


@pytest.mark.django_db(transaction=True)
def test_without_the_retry_postgresql_aborts_one_of_them():
    a, b = factories.memory(content="first row").pk, factories.memory(content="second row").pk
    attempts, errors = crossing(a, b, retry=False)
    assert len(errors) == 1 and errors[0].__cause__.sqlstate == "40P01"
