"""A torch adapter whose exported path is wrong and whose eager path is right, for
tests/test_exporting.py: ONNX Runtime's float results scaled by 1 + 1e-3, as a runtime whose
kernel (or an exporter whose decomposition) is off by a part in a thousand would return them.
Eager, every op is torch's own."""
from adapters.torch import TorchAdapter


class PerturbedExport(TorchAdapter):
    name = "perturbed-export"

    def onnx_session(self, fn, env, dynamic=False):
        served, torch = super().onnx_session(fn, env, dynamic), self.torch
        run, accepts = served if dynamic else (served, None)

        def perturbed(env):
            scaled = lambda t: t * (1 + 1e-3) if t.is_floating_point() else t  # noqa: E731
            return torch.utils._pytree.tree_map(scaled, run(env))
        return (perturbed, accepts) if dynamic else perturbed
