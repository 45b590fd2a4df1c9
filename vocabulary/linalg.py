"""The Python Array API standard's linear algebra extension (2024.12): its sum-product functions
diagonal, trace, outer, cross and matrix_power, vector_norm, and det, slogdet, inv and solve. Each op is the standard's
function of the same name (linalg.diagonal, linalg.trace, linalg.outer, ..., linalg.solve), cholesky, eigvalsh,
svdvals, matrix_norm, matrix_rank and pinv, and the decompositions eigh, svd and qr; its semantics the standard's text: https://data-apis.org/array-api/2024.12/extensions/linear_algebra_functions.html

A stack of matrices is held in the last two axes (the standard); offsets count diagonals above
the main one (> 0) and below it (< 0), and an offset past the matrix gives an empty diagonal.
det, slogdet, inv and solve take real floating matrices; the standard leaves a singular matrix's inverse
and solution to the implementation (NumPy, the reference, raises LinAlgError), as it does cholesky of a
matrix that is not symmetric positive definite.
"""
import numpy as np

from vocabulary.records import Op, values

PAGE = "https://data-apis.org/array-api/2024.12/extensions/generated/array_api.linalg."
LU_OPS = ("det", "slogdet", "inv", "solve")  # computed by LU factors, of real floating matrices only (the standard)
# LAPACK's factorisations and decompositions: real floating matrices, no half precision
DECOMPOSITION_OPS = ("eigh", "svd", "qr")  # several factors, each fixed only up to signs (judged by properties)
FACTORED_OPS = (*LU_OPS, "cholesky", "eigvalsh", "svdvals", "matrix_rank", "pinv", *DECOMPOSITION_OPS)

LINALG_OPS = [
    Op("diagonal", "x, offset=0", "linear algebra", f"The offset-th diagonal of each matrix in x's last two axes "
       f"(offset > 0 above the main diagonal, < 0 below it): out[..., i] = x[..., i, i + offset] for offset >= 0 "
       f"and x[..., i - offset, i] below; its length is what fits in the matrix, 0 past it; x's dtype. "
       f"({PAGE}diagonal.html)", lambda d: ([values(d, (2, 3))], {"offset": 1}), bound="structural"),
    Op("trace", "x, offset=0", "linear algebra", f"The sum of each matrix's offset-th diagonal (diagonal's "
       f"offsets), x's last two axes reduced, 0 for an empty diagonal. The dtype is x's for a floating x; a signed "
       f"integer x smaller than int64 gives int64, an unsigned one uint64 (the standard's dtype None, NumPy's). "
       f"({PAGE}trace.html)", lambda d: ([values(d, (3, 3))], {}), bound="trace"),
    Op("outer", "x1, x2", "linear algebra", f"The outer product of two 1-D tensors: out[i, j] = x1[i] * x2[j], of "
       f"shape (N, M) and the operands' promoted dtype. ({PAGE}outer.html)",
       lambda d: ([values(d, (3,)), values(d, (2,))], {}), bound="outer"),
    Op("cross", "x1, x2, axis=-1", "linear algebra", f"The cross product of 3-element vectors along axis (of "
       f"length 3 in both operands), which broadcast against each other on the other axes; axis is in [-N, -1], "
       f"N the smaller rank, counted from the end of each (the standard): out = (a2 b3 - a3 b2, a3 b1 - a1 b3, "
       f"a1 b2 - a2 b1). ({PAGE}cross.html)", lambda d: ([values(d, (2, 3)), values(d, (2, 3))], {}),
       bound="cross"),
    Op("matrix_power", "x, n", "linear algebra", f"Each square matrix of x (its last two axes) raised to the "
       f"integer power n: n = 0 gives the identity, n > 0 repeated products, n < 0 the inverse's power (a "
       f"floating x). ({PAGE}matrix_power.html)", lambda d: ([values(d, (2, 2))], {"n": 2}),
       bound="matrix_power"),
    Op("vector_norm", "x, axis=None, keepdims=False, ord=2", "linear algebra", f"The vector norm of x over axis "
       f"(None: every element; a tuple: the elements of those axes as one vector, the standard's rule, never a "
       f"matrix norm): ord inf is max |x|, -inf min |x|, 0 the count of nonzero elements (not a norm), any other "
       f"real p (sum |x|^p)^(1/p) (p < 1 is not a norm; a zero element with p < 0 gives 0); x's real floating dtype. "
       f"({PAGE}vector_norm.html)", lambda d: ([values(d, (2, 3))], {"axis": -1, "ord": 3}), bound="vector_norm"),
    Op("det", "x", "linear algebra", f"The determinant of each square matrix of x (its last two axes), x's "
       f"real floating dtype; of a singular matrix 0. ({PAGE}det.html)", lambda d: ([values(d, (3, 3))], {}),
       bound="det"),
    Op("slogdet", "x", "linear algebra", f"The sign and the natural logarithm of the absolute value of each "
       f"square matrix's determinant (x's last two axes), two tensors of x's real floating dtype: sign is -1, 0 or "
       f"1 and logabsdet log|det|, det = sign * exp(logabsdet), finite where det itself is past the dtype's range; "
       f"a singular matrix has sign 0 and logabsdet -infinity. ({PAGE}slogdet.html)",
       lambda d: ([values(d, (3, 3))], {}), parts=("sign", "logabsdet"), bound="slogdet"),
    Op("inv", "x", "linear algebra", f"The inverse of each square matrix of x (its last two axes), x's real "
       f"floating dtype; a singular matrix has none (the standard leaves what happens to the "
       f"implementation). ({PAGE}inv.html)", lambda d: ([values(d, (3, 3))], {}), bound="inv"),
    Op("solve", "x1, x2", "linear algebra", f"The solution X of x1 X = x2 for each square matrix of x1: an x2 of "
       f"shape (M,) is one vector, solved against every matrix of x1 (the result (..., M)); any other x2 is a "
       f"stack of (M, K) matrices whose stack broadcasts against x1's (the result (..., M, K)); never a stack of "
       f"vectors (the standard). A singular x1 has no solution (the standard leaves what happens to the "
       f"implementation). ({PAGE}solve.html)", lambda d: ([values(d, (3, 3)), values(d, (3, 2))], {}),
       bound="solve"),
    Op("cholesky", "x, upper=False", "linear algebra", f"The Cholesky factor of each symmetric positive definite "
       f"matrix of x (its last two axes): the lower triangular L with a positive diagonal and L L^T = x, or with "
       f"upper the upper triangular U = L^T, U^T U = x; x's real floating dtype. The standard asks a symmetric "
       f"positive definite x and leaves any other to the implementation. ({PAGE}cholesky.html)",
       lambda d: ([np.eye(2, dtype=bool) if d == "bool" else np.array([[4, 2], [2, 3]])], {}), bound="cholesky"),
    Op("eigvalsh", "x", "linear algebra", f"The eigenvalues of each real symmetric matrix of x (its last two "
       f"axes), each as often as its multiplicity, in ascending order (NumPy's, every framework's; the standard "
       f"leaves the order to the implementation); x's real floating dtype. The standard asks a symmetric x. "
       f"({PAGE}eigvalsh.html)", lambda d: ([np.array([[2, 1], [1, 2]])], {}), bound="eigvalsh"),
    Op("svdvals", "x", "linear algebra", f"The singular values of each matrix of x (its last two axes, M x N, "
       f"any shape), min(M, N) of them, nonnegative and in descending order (the standard); x's real floating "
       f"dtype. ({PAGE}svdvals.html)", lambda d: ([np.array([[3, 0], [4, 5]])], {}), bound="svdvals"),
    Op("matrix_norm", "x, keepdims=False, ord='fro'", "linear algebra", f"The matrix norm of each matrix of x (its "
       f"last two axes): 'fro' sqrt(sum x^2), 'nuc' the sum of the singular values, 1 and inf the largest sum of "
       f"|x| down a column and along a row, -1 and -inf the smallest, 2 and -2 the largest and the smallest "
       f"singular value (-1, -2 and -inf are no norms); keepdims keeps the two axes as size 1; x's real floating "
       f"dtype. ({PAGE}matrix_norm.html)", lambda d: ([np.array([[1, -2], [3, 4]])], {"ord": 1}),
       bound="matrix_norm"),
    Op("matrix_rank", "x, rtol=None", "linear algebra", f"The rank of each matrix of x (its last two axes, M x "
       f"N): how many of its singular values exceed rtol times the largest; rtol None is max(M, N) eps, eps that "
       f"of x's dtype (the standard), so a singular value between the float32 and the float64 cutoffs counts in "
       f"float64 only; the default integer dtype (int64). ({PAGE}matrix_rank.html)",
       lambda d: ([np.array([[1, 2], [2, 4]])], {})),
    Op("pinv", "x, rtol=None", "linear algebra", f"The Moore-Penrose pseudo-inverse of each matrix of x (its "
       f"last two axes, M x N), (..., N, M): V diag(1 / s) U^T over the singular values s that exceed rtol "
       f"times the largest, the others' terms dropped; rtol None is max(M, N) eps, eps that of x's dtype (the "
       f"standard); x's real floating dtype. ({PAGE}pinv.html)", lambda d: ([np.array([[1, 2], [3, 4], [5, 6]])], {}),
       bound="pinv"),
    Op("eigh", "x", "linear algebra", f"The eigenvalues and eigenvectors of each real symmetric matrix of x "
       f"(its last two axes, n x n): eigenvalues (..., n) in ascending order, as eigvalsh's, and eigenvectors "
       f"(..., n, n) orthonormal columns with x V = V diag(eigenvalues); each column's sign, and for a repeated "
       f"eigenvalue its columns' basis, is the implementation's; x's real floating dtype. The standard asks a "
       f"symmetric x. ({PAGE}eigh.html)", lambda d: ([np.array([[2, 1], [1, 2]])], {}),
       parts=("eigenvalues", "eigenvectors")),
    Op("svd", "x, full_matrices=True", "linear algebra", f"The singular value decomposition of each matrix of x "
       f"(its last two axes, M x N, K = min(M, N)): U, S and Vh with x = U[..., :K] diag(S) Vh[..., :K, :], S "
       f"(..., K) svdvals' values in descending order, U's columns and Vh's rows orthonormal: U (..., M, "
       f"M) and Vh (..., N, N) with full_matrices, else (..., M, K) and (..., K, N); each singular vector's sign "
       f"(a pair's, together) is the implementation's; x's real floating dtype. ({PAGE}svd.html)",
       lambda d: ([np.array([[3, 0], [4, 5]])], {}), parts=("U", "S", "Vh")),
    Op("qr", "x, mode='reduced'", "linear algebra", f"The QR decomposition of each matrix of x (its last two "
       f"axes, M x N, K = min(M, N)): Q with orthonormal columns and R upper triangular, x = Q R; mode 'reduced' "
       f"gives Q (..., M, K) and R (..., K, N), 'complete' Q (..., M, M) and R (..., M, N); the signs of R's "
       f"diagonal (and Q's columns with them) are the implementation's, as the standard leaves them; x's real "
       f"floating dtype. ({PAGE}qr.html)", lambda d: ([np.array([[3, 0], [4, 5]])], {}), parts=("Q", "R")),
]
