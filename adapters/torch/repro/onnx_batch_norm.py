"""torch.nn.functional.batch_norm exported by torch.onnx.export and run by ONNX Runtime. In
training mode (training=True) with running statistics given, the exported program standardises
by the running statistics and updates none: onnxscript's conversion sets `training = False` ("a
temporary fix", so that ONNX BatchNormalization runs in inference mode); without running
statistics it takes the batch's, as eager torch does. In inference mode a float64 program's
epsilon is float32's 9.999999747378752e-06: ONNX attributes hold 32-bit floats."""
import onnxruntime
import torch


class TrainingStep(torch.nn.Module):
    def forward(self, x, mean, var):
        mean, var = mean.clone(), var.clone()  # updated in place, as a BatchNorm module's buffers are
        y = torch.nn.functional.batch_norm(x, mean, var, training=True, momentum=0.1, eps=1e-5)
        return y, mean, var


class Inference(torch.nn.Module):
    def forward(self, x, mean, var):
        return torch.nn.functional.batch_norm(x, mean, var, training=False, eps=1e-5)


def exported(module, args):
    program = torch.onnx.export(torch.export.export(module.eval(), args), dynamo=True, verbose=False)
    session = onnxruntime.InferenceSession(program.model_proto.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(None, {i.name: a.numpy() for i, a in zip(session.get_inputs(), args)})


step = (torch.tensor([[1.0], [3.0]]), torch.tensor([5.0]), torch.tensor([4.5]))  # y, then the running statistics
print(f"float32 training step: eager {[t.ravel().tolist() for t in TrainingStep()(*step)]}")
print(f"float32 training step: onnxruntime {[t.ravel().tolist() for t in exported(TrainingStep(), step)]}")
x = tuple(torch.tensor(v, dtype=torch.float64) for v in ([[3.0]], [1.0], [4.5]))
print(f"float64 inference: eager {Inference()(*x).item()!r}, onnxruntime {exported(Inference(), x)[0].item()!r}")
