"""engine/parallel.py: the ranges cover the work once, errors come back, threads are settable,
a forked child splits work too, and a convolution's gradients do not depend on the split."""
import os
import signal

import numpy as np
import pytest

from engine import nn, parallel


@pytest.fixture
def threads():
    before = parallel.get_num_threads()
    yield parallel.set_num_threads
    parallel.set_num_threads(before)


@pytest.mark.parametrize("count, n", [(1, 10), (2, 10), (3, 7), (4, 2), (2, 0)])
def test_the_ranges_cover_every_item_once(threads, count, n):
    threads(count)
    seen = np.zeros(n, int)

    def work(start, stop):
        seen[start:stop] += 1

    parallel.over(n, work)
    assert seen.tolist() == [1] * n


def test_an_error_in_a_worker_is_raised_to_the_caller(threads):
    threads(2)

    def work(start, stop):
        if start > 0:
            raise ValueError("second range")

    with pytest.raises(ValueError, match="second range"):
        parallel.over(4, work)


@pytest.mark.parametrize("bad", [0, -1, 1.5, "2"])
def test_a_bad_thread_count_is_one_clear_error(bad):
    with pytest.raises(ValueError, match="count >= 1"):
        parallel.set_num_threads(bad)


def test_a_forked_child_splits_work_too(threads):
    threads(2)
    parallel.over(2, lambda a, b: None)  # the parent has split work before the fork
    pid = os.fork()
    if pid == 0:  # the child: threads that do not survive a fork must not be waited for
        signal.alarm(20)  # so a hang ends the child (killed: a non-zero status), not the test run
        seen = []
        parallel.over(2, lambda a, b: seen.append(a))
        os._exit(0 if sorted(seen) == [0, 1] else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


@pytest.mark.parametrize("count", [1, 2])
def test_conv_gradients_do_not_depend_on_the_thread_count(threads, count):
    """The unfold's channels split across threads: the same gradient, to the bit, as one thread."""
    rng = np.random.default_rng(0)
    x, w = rng.standard_normal((2, 5, 7, 7)), rng.standard_normal((3, 5, 3, 3))

    def grads():
        xt, wt = nn.Tensor(x, requires_grad=True), nn.Tensor(w, requires_grad=True)
        nn.ops.sum(nn.conv2d(xt, wt, padding=1, dilation=(1, 2))).backward()
        return xt.grad, wt.grad

    threads(1)
    one = grads()
    threads(count)
    assert all(np.array_equal(a, b) for a, b in zip(one, grads()))
