"""torch.export's own path: the program exported by torch.export, saved with torch.export.save,
loaded with torch.export.load and run by the loaded ExportedProgram's module(), as a PyTorch
program is shipped as a .pt2 file and served from Python. Its graph calls torch's own ATen
kernels, as eager torch does: what it finds beside the ONNX path (torch's exported mode) is
torch.export's own doing (the graph it captures, the guards and asserts it keeps, what survives
serialization), told apart from the ONNX converter's and ONNX Runtime's (docs/exporting.md).

A variant of the torch adapter that runs the exported mode alone, whose exported mode is matched
against torch's documented differences as torch's eager mode is (Adapter.base_modes): the same
kernels, and not ONNX Runtime's."""
import io

from adapters.base import Unsupported
from adapters.exporting import per_signature
from adapters.torch import TorchAdapter


class ExportedProgramAdapter(TorchAdapter):
    name = "torch-export"
    variant_of = "torch"  # torch's kernels, through torch.export's graph
    base_modes = {"exported": "eager"}

    @classmethod
    def modes(cls):
        return ("exported",)

    def export(self, fn, weights=()):
        return per_signature(self.loaded_module, fn, dynamic=True)

    def loaded_module(self, fn, env, dynamic=False):
        """fn run once eagerly, as a model runs before it is exported (what it makes once, a
        weightless_attention, is then made outside the program), then its ExportedProgram
        (TorchExport.exported_program) through torch.export.save and torch.export.load:
        run(env) -> its module()'s result (`dynamic`: (run, accepts), its sizes symbolic,
        adapters.exporting.per_signature). What serialization refuses is Unsupported, in its words."""
        torch = self.torch
        fn(env)
        program, names = self.exported_program(fn, env, dynamic)
        try:
            saved = io.BytesIO()
            torch.export.save(program, saved)
            saved.seek(0)
            module = torch.export.load(saved).module()
        except Exception as exc:  # serialization's refusal, in its own words
            raise Unsupported(f"torch.export.save and load: {type(exc).__name__}: {exc}") from None

        def run(env):
            return module(*(env[k] for k in names))
        return (run, self.accepts(program, names)) if dynamic else run

    def weightless_attention(self, *config):
        """One per configuration, made on its first call (the eager run before an export) and kept,
        as a model makes its modules once, outside the program it exports. Made inside the
        exported program, its initialisation (xavier_uniform_ under no_grad, on the meta device)
        would stay in the graph, and torch.export.save refuses that graph ("SpecViolationError:
        Node.meta wrap_with_set_grad_enabled is missing val field"): the adapter's doing, not a
        user's model's."""
        modules = self.__dict__.setdefault("_attention_modules", {})
        if config not in modules:
            modules[config] = super().weightless_attention(*config)
        return modules[config]
