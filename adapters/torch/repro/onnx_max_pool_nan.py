"""torch.nn.functional.max_pool2d over a 2x2 window holding one NaN, exported by torch.onnx.export
and run by ONNX Runtime: whether the NaN comes out depends on its place in the window and on the
dtype (float16 and float32: NaN second gives NaN, first or last gives the largest number; float64:
NaN first gives NaN), where eager torch gives NaN wherever it is."""
import onnxruntime
import torch


class MaxPool(torch.nn.Module):
    def forward(self, x):
        return torch.nn.functional.max_pool2d(x, 2, stride=2)


nan = float("nan")
for dtype in (torch.float16, torch.float32, torch.float64):
    for window in ([[nan, 1.0], [2.0, 3.0]], [[1.0, nan], [2.0, 3.0]], [[1.0, 2.0], [3.0, nan]]):
        x = torch.tensor([[window]], dtype=dtype)
        exported = torch.onnx.export(torch.export.export(MaxPool().eval(), (x,)), dynamo=True, verbose=False)
        session = onnxruntime.InferenceSession(exported.model_proto.SerializeToString(),
                                               providers=["CPUExecutionProvider"])
        out = session.run(None, {session.get_inputs()[0].name: x.numpy()})[0]
        print(f"{str(dtype):14} {window}  eager {MaxPool()(x).item()}  onnxruntime {out.item()}")
