"""The tensorflow adapter's optimizers: tf.keras.optimizers (Keras 3's, on the TensorFlow backend:
adapters/keras/optimizers.py), and TensorFlow's own norm clipping, tf.clip_by_global_norm and
tf.clip_by_norm, as a custom training loop calls them on its gradients, and its L2 loss term,
tf.nn.l2_loss."""
from adapters.keras import optimizers as keras_optimizers
from adapters.optimizers import Optimizers, eps_free_clipping, fixed

TF_CLIP_GRAD_NORM = eps_free_clipping(
    "tf.clip_by_global_norm scales by clip_norm * min(1 / global_norm, 1 / clip_norm) and tf.clip_by_norm by "
    "clip_norm / max(l2norm, clip_norm), where torch.nn.utils.clip_grad_norm_ scales by max_norm / (||g|| + 1e-6)",
    "https://github.com/tensorflow/tensorflow/blob/v2.21.0/tensorflow/python/ops/clip_ops.py")


class TensorFlowOptimizers(Optimizers):
    """A mixin of TensorFlowAdapter (self.tf, self._keras_is_tensorflow)."""

    def optimize(self, op, param, grads, hyper):
        self._keras_is_tensorflow()  # tf.keras.optimizers are Keras 3's, on the TensorFlow backend
        return keras_optimizers.run(self.tf.keras, op, param, grads, hyper)

    def clip_norms(self, grads, max_norm, per_parameter, convention):
        fixed(convention, {"max_norm_eps": 0.0}, "tf.clip_by_global_norm")
        if per_parameter:
            return [self.tf.clip_by_norm(g, max_norm) for g in grads]
        return self.tf.clip_by_global_norm(grads, max_norm)[0]

    def l2_penalty(self, x, weight_decay):
        return self.tf.nn.l2_loss(x) * weight_decay
