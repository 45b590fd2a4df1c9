"""torch's export path: torch.onnx.export (the dynamo-based exporter, torch's default since 2.9)
of the program as an nn.Module, its ONNX model run by ONNX Runtime's CPU execution provider, as
a PyTorch model is most often served outside Python (docs/exporting.md)."""
from adapters.base import Unsupported
from adapters.exporting import per_signature, positional


class TorchExport:
    """The exported mode: Adapter.export."""

    def export(self, fn, weights=()):
        return per_signature(self.onnx_session, fn)

    def exported_program(self, fn, env):
        """fn exported by torch.export for env's tensors (Python numbers are constants of the
        program): (its ExportedProgram, the names of the tensors it takes, in order). An error of
        the program itself raises as it does under torch.export; torch.export's refusals (a graph
        break, a data-dependent shape) are Unsupported, in its words."""
        torch = self.torch
        names, call = positional(fn, env, lambda v: isinstance(v, torch.Tensor))

        class Program(torch.nn.Module):
            def forward(self, *tensors):
                return call(*tensors)
        try:
            return torch.export.export(Program().eval(), tuple(env[k] for k in names)), names
        except (torch._dynamo.exc.Unsupported, torch._dynamo.exc.UserError) as exc:
            raise Unsupported(f"torch.export: {type(exc).__name__}: {exc}") from None

    def onnx_session(self, fn, env):
        """fn's ExportedProgram converted by torch.onnx.export and loaded by
        onnxruntime.InferenceSession: run(env) -> fn's result as tensors. What the ONNX converter
        or the runtime refuses while exporting or loading (or, for a kernel that refuses a dtype,
        while running: "GRU operator does not support double yet", "MLFloat16 data type is not
        supported with ScatterND ... when reduction is 'add'") is Unsupported, in their words."""
        import onnx
        import onnxruntime
        torch = self.torch
        if any(getattr(v, "dtype", None) == torch.bfloat16 for v in env.values()):
            raise Unsupported("ONNX Runtime's Python API takes and returns NumPy arrays, and NumPy has no bfloat16")
        program, names = self.exported_program(fn, env)
        try:
            exported = torch.onnx.export(program, dynamo=True, verbose=False)
            model = self.served(exported.model_proto)
            session = onnxruntime.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
        except Unsupported:
            raise
        except Exception as exc:  # the exporter's or the runtime's refusal, in its own words
            raise Unsupported(f"torch.onnx.export to ONNX Runtime: {type(exc).__name__}: {exc}") from None
        # each input as the served model declares it (float16 where it was converted to float16,
        # as its users then feed it)
        inputs = [(i.name, onnx.helper.tensor_dtype_to_np_dtype(i.type.tensor_type.elem_type))
                  for i in model.graph.input]
        structure = exported.exported_program.call_spec.out_spec

        def run(env):
            feed = {name: env[k].detach().cpu().numpy().astype(dtype, copy=False)
                    for (name, dtype), k in zip(inputs, names)}
            try:
                outputs = [torch.from_numpy(o) for o in session.run(None, feed)]
            except onnxruntime.capi.onnxruntime_pybind11_state.RuntimeException as exc:
                if not any(refusal in str(exc) for refusal in ("does not support", "is not supported with")):
                    raise  # not a kernel's refusal of a dtype, found when it runs
                raise Unsupported(f"ONNX Runtime: {exc}") from None
            return torch.utils._pytree.tree_unflatten(outputs, structure)
        return run

    def served(self, model):
        """The ONNX model (a ModelProto) as the runtime is given it: as exported (a variant converts
        it first: torch-onnx-float16)."""
        return model
