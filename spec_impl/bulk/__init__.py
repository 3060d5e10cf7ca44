"""Bulk (Arrow) versions of the value rules, checked against the scalar oracle.

- `apply_transform_array(transform, source_type, array)`: every partition transform over an array.
- `bucket_array(array, n)` and `hash_array(array)`: Appendix B hashes, vectorized in numpy.
"""

from spec_impl.bulk.bucket import bucket_array, hash_array
from spec_impl.bulk.transforms import apply_transform_array

__all__ = ["apply_transform_array", "bucket_array", "hash_array"]
