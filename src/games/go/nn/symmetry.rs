//! The 8 symmetries of a square board, numbered as KataGo numbers them.
