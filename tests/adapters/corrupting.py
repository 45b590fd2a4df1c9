"""An adapter whose relu returns a result of the wrong shape and lives (tests/test_faults.py): a
corrupted heap that did not abort the process this time, as Paddle's int32 matmul whose batch
axes broadcast on both sides. corrupting.differences.yaml beside this file documents it."""
from adapters.reference import ReferenceAdapter


class CorruptingAdapter(ReferenceAdapter):
    name = "corrupting"

    def relu(self, x):
        return super().relu(x)[:1]
