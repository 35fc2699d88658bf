//! Difference-bound matrices.
