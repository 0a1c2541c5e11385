//! The one sorting routine of the core: a stable merge sort of indices, and
//! a sort by key through it.

/// A stable sort of indices, `le(a, b)` meaning `a` may come first (no
/// standard sort here: each of those adds kilobytes to the component).
pub(crate) fn merge_sort(v: &mut [usize], le: &dyn Fn(usize, usize) -> bool) {
    let mut buf = vec![0; v.len()];
    let mut width = 1;
    while width < v.len() {
        for start in (0..v.len()).step_by(2 * width) {
            let mid = (start + width).min(v.len());
            let end = (start + 2 * width).min(v.len());
            let (mut a, mut b) = (start, mid);
            for slot in &mut buf[start..end] {
                if b >= end || (a < mid && le(v[a], v[b])) {
                    *slot = v[a];
                    a += 1;
                } else {
                    *slot = v[b];
                    b += 1;
                }
            }
        }
        v.copy_from_slice(&buf);
        width *= 2;
    }
}

/// Sort `v` by `key` (stable), through [`merge_sort`]: one sorting routine in the component for
/// every list the core sorts, instead of a quicksort per element type.
pub(crate) fn sort_by_key<T: Copy, K: Ord>(v: &mut Vec<T>, key: impl Fn(&T) -> K) {
    if v.len() < 2 {
        return;
    }
    let mut order: Vec<usize> = (0..v.len()).collect();
    merge_sort(&mut order, &|a, b| key(&v[a]) <= key(&v[b]));
    *v = order.into_iter().map(|i| v[i]).collect();
}
