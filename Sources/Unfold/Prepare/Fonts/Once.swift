import Synchronization

/// Work done once, when it is first asked for, by whichever thread asks first: what the fallback chain reads only
/// when a text needs it (a face's tables, a family's files, the chain's faces per style).
///
/// A value read after ``run(_:)`` returns is the one the work wrote: the flag is read with acquiring order (a plain
/// load on x86) and written with releasing order, under a lock that the other threads asking wait on.
struct Once: ~Copyable, Sendable {
  /// Whether the work is done.
  private let done: Atomic<Bool>
  /// Held while the work runs.
  private let lock = Mutex<Void>(())

  /// A piece of work to do, or none (`isDone`: what it would make is made already).
  init(isDone: Bool = false) {
    done = Atomic(isDone)
  }

  /// Whether the work is done: what it writes may be read once this is true.
  ///
  /// Asked before ``run(_:)`` where the check is hot: a closure made there retains what it captures even when the
  /// work is done.
  @inline(__always)
  var isDone: Bool { done.load(ordering: .acquiring) }

  /// Runs `work` if it has not run; returns once it has, on this thread or another (without the lock once it has).
  borrowing func run(_ work: () -> Void) {
    guard !isDone else { return }
    lock.withLock { _ in
      guard !done.load(ordering: .relaxed) else { return }
      work()
      done.store(true, ordering: .releasing)
    }
  }
}
