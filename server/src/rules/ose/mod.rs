//! Old-School Essentials (`ose-adventuring.txt`), the shared B/X core: first increment.

pub mod tables;
