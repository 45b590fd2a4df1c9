"""torch's export path: torch.onnx.export (the dynamo-based exporter, torch's default since 2.9)
of the program as an nn.Module, its ONNX model run by ONNX Runtime's CPU execution provider, as
a PyTorch model is most often served outside Python (docs/exporting.md)."""
import math

import numpy as np

from adapters.base import Unsupported
from adapters.exporting import fits, per_signature, positional

NO_BFLOAT16 = "ONNX Runtime's Python API takes and returns NumPy arrays, and NumPy has no bfloat16"


class TorchExport:
    """The exported mode: Adapter.export."""

    def export(self, fn, weights=()):
        return per_signature(self.onnx_session, fn, dynamic=True)

    def exported_program(self, fn, env, dynamic=False):
        """fn exported by torch.export for env's tensors (Python numbers are constants of the
        program): (its ExportedProgram, the names of the tensors it takes, in order); `dynamic`:
        every size Dim.AUTO, which torch.export keeps symbolic where the program allows it (and
        specialises where it does not, and at sizes 0 and 1). An error of the program itself
        raises as it does under torch.export; torch.export's refusals (a graph break, a
        data-dependent shape) are Unsupported, in its words."""
        torch = self.torch
        names, call = positional(fn, env, lambda v: isinstance(v, torch.Tensor))
        tensors = tuple(env[k] for k in names)
        sizes = None
        if dynamic:  # torch.export marks the tensors it is given dynamic: aliases keep env's own unmarked for a
            tensors = tuple(t.detach() for t in tensors)  # static export of the same inputs
            sizes = (tuple({axis: torch.export.Dim.AUTO for axis in range(t.dim())} for t in tensors),)

        class Program(torch.nn.Module):
            def forward(self, *tensors):
                return call(*tensors)
        try:
            return torch.export.export(Program().eval(), tensors, dynamic_shapes=sizes), names
        except (torch._dynamo.exc.Unsupported, torch._dynamo.exc.UserError) as exc:
            raise Unsupported(f"torch.export: {type(exc).__name__}: {exc}") from None

    def accepts(self, program, names):
        """accepts(env) of a dynamic ExportedProgram: whether env's tensors fit its inputs' sizes
        (static, symbolic within its range constraints, or derived from others) and pass the
        shape guards torch.export recorded while tracing (reshape(-1, 2): an even size), as its
        module() checks them before it runs. The ONNX model keeps the symbolic sizes and not the
        guards (those of torch's decompositions too, which the ONNX path runs: pad_sequence's
        longest sequence), so a shape the guards refuse exports statically, as torch.export asks."""
        from torch.utils._sympy.numbers import int_oo
        placeholders = {node.name: node for node in program.graph.nodes if node.op == "placeholder"}
        pattern = [tuple(_size(d) for d in placeholders[name].meta["val"].shape)
                   for name in program.graph_signature.user_inputs]
        bounds = {str(symbol): (int(r.lower), math.inf if r.upper == int_oo else int(r.upper))
                  for symbol, r in program.range_constraints.items()}
        guards = getattr(program.module(), "_guards_fn", None)
        if guards is None and getattr(program, "_guards_code", None):
            return lambda env: False  # guards this torch gives no way to check: the program serves no other shape

        def accepts(env):
            tensors = [env[k] for k in names]
            if not fits([tuple(t.shape) for t in tensors], pattern, bounds):
                return False
            try:
                if guards is not None:
                    guards(*tensors)
            except AssertionError:
                return False
            return True
        return accepts

    def onnx_session(self, fn, env, dynamic=False):
        """fn's ExportedProgram converted by torch.onnx.export and loaded by
        onnxruntime.InferenceSession: run(env) -> fn's result as tensors (`dynamic`: (run,
        accepts), its sizes symbolic, adapters.exporting.per_signature). What the ONNX converter
        or the runtime refuses while exporting or loading (or, for a kernel that refuses a dtype,
        while running: "GRU operator does not support double yet", "MLFloat16 data type is not
        supported with ScatterND ... when reduction is 'add'") is Unsupported, in their words."""
        import onnx
        import onnxruntime
        torch = self.torch
        if any(getattr(v, "dtype", None) == torch.bfloat16 for v in env.values()):
            raise Unsupported(NO_BFLOAT16)
        program, names = self.exported_program(fn, env, dynamic)
        try:
            exported = torch.onnx.export(program, dynamo=True, verbose=False)
            model = self.served(exported.model_proto)
            session = onnxruntime.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
        except Unsupported:
            raise
        except Exception as exc:  # the exporter's or the runtime's refusal, in its own words
            raise Unsupported(f"torch.onnx.export to ONNX Runtime: {type(exc).__name__}: {exc}") from None
        if any(o.type.tensor_type.elem_type == onnx.TensorProto.BFLOAT16 for o in model.graph.output):
            raise Unsupported(NO_BFLOAT16)  # a program of no tensor input (arange) that returns one
        # each input as the served model declares it (float16 where it was converted to float16,
        # as its users then feed it)
        inputs = [(i.name, onnx.helper.tensor_dtype_to_np_dtype(i.type.tensor_type.elem_type))
                  for i in model.graph.input]
        structure = exported.exported_program.call_spec.out_spec

        def run(env):
            feed = {name: env[k].detach().cpu().numpy().astype(dtype, copy=False)
                    for (name, dtype), k in zip(inputs, names)}
            try:
                # ONNX Runtime returns a uint64 output as NumPy's ulonglong, which torch.from_numpy refuses
                outputs = [torch.from_numpy(np.asarray(o, dtype=o.dtype.name)) for o in session.run(None, feed)]
            except onnxruntime.capi.onnxruntime_pybind11_state.RuntimeException as exc:
                if not any(refusal in str(exc) for refusal in ("does not support", "is not supported with")):
                    raise  # not a kernel's refusal of a dtype, found when it runs
                raise Unsupported(f"ONNX Runtime: {exc}") from None
            return torch.utils._pytree.tree_unflatten(outputs, structure)
        # the program the ONNX model was made from (torch's decompositions add guards of their own:
        # pad_sequence's longest sequence) says which shapes it serves
        return (run, self.accepts(exported.exported_program, names)) if dynamic else run

    def served(self, model):
        """The ONNX model (a ModelProto) as the runtime is given it: as exported (a variant converts
        it first: torch-onnx-float16)."""
        return model


def _size(size):
    """A size of a dynamic ExportedProgram's input as adapters.exporting.fits reads it: an int,
    a symbol's name, or a function of the symbols' sizes (a size derived from others)."""
    expr = getattr(getattr(size, "node", None), "expr", None)
    if expr is None or expr.is_Integer:
        return int(size if expr is None else expr)
    if expr.is_Symbol:
        return str(expr)
    return lambda sizes: int(expr.subs({symbol: sizes[str(symbol)] for symbol in expr.free_symbols}))
