//! Work split into pieces done on parallel threads: the objects' records and the
//! deflate streams of large chunks. The pieces and their order never depend on the
//! machine, so a state always makes the same file.

use std::num::NonZero;

/// `f` of every piece, in piece order, on up to as many scoped threads as the machine
/// runs at once, each taking a contiguous run of pieces.
pub(crate) fn map<T: Sync, R: Send>(pieces: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism().map_or(1, NonZero::get).min(pieces.len());
    if threads <= 1 {
        return pieces.iter().map(f).collect();
    }
    let f = &f;
    std::thread::scope(|s| {
        let runs: Vec<_> = pieces
            .chunks(pieces.len().div_ceil(threads))
            .map(|run| s.spawn(move || run.iter().map(f).collect::<Vec<R>>()))
            .collect();
        runs.into_iter().flat_map(|run| run.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn pieces_come_back_in_order() {
        let pieces: Vec<u32> = (0..37).collect();
        assert_eq!(super::map(&pieces, |k| k * 2), (0..37).map(|k| k * 2).collect::<Vec<_>>());
        assert!(super::map(&[] as &[u32], |k| *k).is_empty());
    }
}
