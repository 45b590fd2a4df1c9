"""Two torch adapters whose matmul is right within every bound and not bitwise repeatable, for
tests/test_repeat.py. Each splits the contracted axis into chunks and adds the chunks' products:
`racing-matmul` in a new random order on every call, as a kernel that adds with atomics from
racing threads does; `thread-split-matmul` in as many shares as the process has CPUs, each thread
taking every n-th element of the axis, as a kernel that deals the axis out to its threads does (the
same result in every run of one machine, another on a machine with another CPU count). The shares
are dealt, not cut in halves: a BLAS that blocks the axis at its half (K = 512 in blocks of 256)
adds two contiguous halves exactly as the unsplit product, and CI's machine did."""
import os
import random

from adapters.torch import TorchAdapter

CHUNKS = 8


def chunked_matmul(a, b, chunks: list):
    """a @ b as the sum of the products of the contracted axis' chunks, added in the given order."""
    total = None
    for index in chunks:
        part = a[..., index] @ b[..., index, :]
        total = part if total is None else total + part
    return total


class RacingMatmul(TorchAdapter):
    name = "racing-matmul"

    def matmul(self, a, b):
        chunks = list(self.torch.arange(a.shape[-1]).chunk(CHUNKS))
        random.SystemRandom().shuffle(chunks)
        return chunked_matmul(a, b, chunks)


class ThreadSplitMatmul(TorchAdapter):
    name = "thread-split-matmul"

    def matmul(self, a, b):
        cpus = len(os.sched_getaffinity(0))
        return chunked_matmul(a, b, [self.torch.arange(start, a.shape[-1], cpus) for start in range(cpus)])
