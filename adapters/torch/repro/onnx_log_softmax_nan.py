"""torch.nn.functional.log_softmax of rows holding NaN or +inf, exported by torch.onnx.export and
run by ONNX Runtime: in float64 the other entries of such a row can come back finite or -inf
(x - max + 46.0517, the log of ONNX Runtime's 1e-20f floor on the row's sum, which C's fmax picks
over a NaN sum), where eager torch, and ONNX Runtime's own float32 kernel, give NaN. Whether a
row's maximum skips its NaN depends on the row's place in the batch ([1, nan, 0] alone here, and
finite in a batch of five)."""
import onnxruntime
import torch


class LogSoftmax(torch.nn.Module):
    def forward(self, x):
        return torch.nn.functional.log_softmax(x, -1)


rows = [[0.0, float("nan"), 0.0], [1.0, float("nan"), 0.0], [0.0, float("inf"), 0.0]]
for dtype in (torch.float32, torch.float64):
    x = torch.tensor(rows, dtype=dtype)
    exported = torch.onnx.export(LogSoftmax().eval(), (x,), dynamo=True, verbose=False)
    session = onnxruntime.InferenceSession(exported.model_proto.SerializeToString(), providers=["CPUExecutionProvider"])
    out = session.run(None, {session.get_inputs()[0].name: x.numpy()})[0]
    for row, eager, runtime in zip(rows, LogSoftmax()(x).tolist(), out.tolist()):
        print(f"{str(dtype):14} {row}  eager {eager}  onnxruntime {runtime}")
