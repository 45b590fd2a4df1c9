"""torch.nn.functional.scaled_dot_product_attention of a query whose boolean mask row is all
False: eagerly torch returns 0 for that row; exported by torch.onnx.export and run by ONNX
Runtime, the row is the mean of V's rows, as a softmax over equal finite scores gives."""
import numpy as np
import onnxruntime
import torch


class Attention(torch.nn.Module):
    def forward(self, q, k, v, m):
        return torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=m)


q = torch.tensor([[[[1.0, 0.0], [0.0, 1.0]]]])
k = torch.tensor([[[[1.0, 2.0], [3.0, -1.0]]]])
v = torch.tensor([[[[1.0, 2.0], [3.0, 4.0]]]])
m = torch.tensor([[[[True, False], [False, False]]]])
print("eager       ", Attention()(q, k, v, m).tolist())
exported = torch.onnx.export(Attention().eval(), (q, k, v, m), dynamo=True, verbose=False)
session = onnxruntime.InferenceSession(exported.model_proto.SerializeToString(), providers=["CPUExecutionProvider"])
feed = {i.name: t.numpy() for i, t in zip(session.get_inputs(), (q, k, v, m))}
print("onnxruntime ", np.asarray(session.run(None, feed)[0]).tolist())
print("ops         ", sorted({node.op_type for node in exported.model_proto.graph.node}))
