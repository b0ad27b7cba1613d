import numpy as np, sys
ref = np.fromfile(sys.argv[1], dtype=np.complex64).astype(np.complex128)
for f in sys.argv[2:]:
    v = np.fromfile(f, dtype=np.complex64).astype(np.complex128)
    print(f"{f}: rel L2 diff vs {sys.argv[1]} = {np.linalg.norm(v - ref) / np.linalg.norm(ref):.3e}")
