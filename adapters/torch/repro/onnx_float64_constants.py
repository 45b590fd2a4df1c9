"""A float64 program's Python float constants, exported by torch.onnx.export and run by ONNX
Runtime: `x * 0.1` multiplies by 0.10000000149011612, float32's 0.1. The exporter's type
promotion turns the number into aten.scalar_tensor(0.1, dtype=float64), and onnxscript's
conversion of scalar_tensor takes the number as a float32 constant before it casts it to
float64. torch.export's own program, and eager torch, multiply by the double 0.1.
MultiheadAttention's scale 1 / sqrt(head_dim) is such a number (weights 5e-9 off at head_dim 2)."""
import onnxruntime
import torch


class Scaled(torch.nn.Module):
    def forward(self, x):
        return x * 0.1


x = torch.tensor([1.0, 3.0], dtype=torch.float64)
program = torch.export.export(Scaled().eval(), (x,))
exported = torch.onnx.export(program, dynamo=True, verbose=False)
session = onnxruntime.InferenceSession(exported.model_proto.SerializeToString(), providers=["CPUExecutionProvider"])
print(f"eager {Scaled()(x).tolist()!r}, torch.export {program.module()(x).tolist()!r}")
print(f"onnxruntime {session.run(None, {session.get_inputs()[0].name: x.numpy()})[0].tolist()!r}")
