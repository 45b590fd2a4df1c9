"""torch.nn.MultiheadAttention whose key_padding_mask pads every key of a batch element: eagerly
torch gives that element's queries 0 before the output projection (scaled_dot_product_attention's
fully masked rows), so its output is the projection's bias; exported by torch.onnx.export and run
by ONNX Runtime it is NaN. The padding mask reaches the exported graph as a float mask of -inf,
and the ONNX conversion of scaled_dot_product_attention with a float mask takes the Softmax of
rows that are all -inf, which is NaN (its NaN guard is only on the boolean-mask path)."""
import numpy as np
import onnxruntime
import torch

torch.manual_seed(0)
attention = torch.nn.MultiheadAttention(8, 2, batch_first=True).eval()
query, key = torch.randn(2, 3, 8), torch.randn(2, 4, 8)
padding = torch.tensor([[False, True, False, True], [True, True, True, True]])


class Attention(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.attention = attention

    def forward(self, query, key, padding):
        return self.attention(query, key, key, key_padding_mask=padding, need_weights=False)[0]


with torch.no_grad():
    print("eager, the all-padding element  ", Attention()(query, key, padding)[1, 0, :4].tolist())
exported = torch.onnx.export(Attention().eval(), (query, key, padding), dynamo=True, verbose=False)
model = exported.model_proto.SerializeToString()
session = onnxruntime.InferenceSession(model, providers=["CPUExecutionProvider"])
out = session.run(None, {i.name: t.numpy() for i, t in zip(session.get_inputs(), (query, key, padding))})[0]
print("onnxruntime, the same element     ", np.asarray(out)[1, 0, :4].tolist())
eager = Attention()(query, key, padding)[0].detach()
print("onnxruntime, the other element ok:", np.allclose(out[0], eager, atol=1e-5))
