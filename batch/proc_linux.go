package batch

import (
	"os/exec"
	"runtime"
	"syscall"
)

const maxrssUnit = 1024

// setParentDeath has the kernel send the child SIGTERM when the batch
// process dies, even by SIGKILL, so no child outlives its shard. The
// kernel sends it when the thread that started the child ends, so the
// caller keeps its goroutine on that thread until the child is waited for
// (lockThread).
func setParentDeath(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}

// lockThread pins the calling goroutine to its thread (see
// setParentDeath); the returned func unpins it.
func lockThread() func() {
	runtime.LockOSThread()
	return runtime.UnlockOSThread
}
