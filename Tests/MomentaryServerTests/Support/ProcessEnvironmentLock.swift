import Synchronization

/// Held while a test changes this process's C environment (`setenv`, `unsetenv`) and while a test
/// reads it to start a process: Foundation reads the environment without a lock, and a variable
/// freed by `unsetenv` while another thread copied it crashed a whole test run (`Process.run`).
enum ProcessEnvironmentLock {
    static let lock = Mutex(())
}
