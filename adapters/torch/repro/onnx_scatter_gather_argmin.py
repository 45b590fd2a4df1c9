"""torch ops exported by torch.onnx.export and run by ONNX Runtime, against eager torch on the same
inputs: scatter_reduce with reduce="mean" and "amax" (the ONNX converter's ScatterElements
reductions), gather and scatter at an index out of range (eager raises), scatter whose index is
narrower than its source (torch reads the index's extent; ONNX ScatterElements wants the same
shape), argmin over NaN, and unique of values holding NaN."""
import onnxruntime
import torch


def onnx_runtime(function, *args):
    class Program(torch.nn.Module):
        def forward(self, *tensors):
            return function(*tensors)

    exported = torch.onnx.export(Program().eval(), args, dynamo=True, verbose=False)
    session = onnxruntime.InferenceSession(exported.model_proto.SerializeToString(), providers=["CPUExecutionProvider"])
    try:
        return session.run(None, {i.name: a.numpy() for i, a in zip(session.get_inputs(), args)})[0].tolist()
    except Exception as exc:
        return f"{type(exc).__name__}: {str(exc)[:160]}"


def eager(function, *args):
    try:
        return function(*args).tolist()
    except Exception as exc:
        return f"{type(exc).__name__}: {str(exc)[:160]}"


reduce_x, reduce_i = torch.tensor([5.0, 4.0, 3.0, 2.0]), torch.tensor([0, 1, 0, 1, 2, 1])
reduce_s = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
cases = {
    "scatter_reduce mean": (lambda x, i, s: x.scatter_reduce(0, i, s, reduce="mean"), reduce_x, reduce_i, reduce_s),
    "scatter_reduce amax, NaN": (lambda x, i, s: x.scatter_reduce(0, i, s, reduce="amax"), torch.zeros(2),
                                 torch.tensor([0, 0, 1]), torch.tensor([float("nan"), 1.0, 2.0])),
    "gather, index 3 of 3": (lambda x, i: torch.gather(x, 1, i), torch.tensor([[1.0, 2, 3], [4, 5, 6]]),
                             torch.tensor([[3], [0]])),
    "scatter, index 3 of 3": (lambda x, i, s: x.scatter(1, i, s), torch.zeros(2, 3), torch.tensor([[3], [0]]),
                              torch.tensor([[7.0], [8.0]])),
    "scatter, index 2x3, src 2x5": (lambda x, i, s: x.scatter(1, i, s), torch.zeros(3, 5, dtype=torch.int32),
                                    torch.tensor([[0, 1, 2], [0, 1, 4]]),
                                    torch.arange(1, 11, dtype=torch.int32).reshape(2, 5)),
    "argmin over NaN": (lambda x: torch.argmin(x, 0), torch.tensor([[float("nan"), 1.0], [0.0, float("nan")]])),
    "unique with NaN": (torch.unique, torch.tensor([float("nan"), 1.0, float("nan"), float("-inf")])),
}
for name, (function, *args) in cases.items():
    print(f"{name:28} eager       {eager(function, *args)}")
    print(f"{'':28} onnxruntime {onnx_runtime(function, *args)}")
