package batch

import (
	"os/exec"
	"syscall"
)

const maxrssUnit = 1024

// setParentDeath has the kernel send the child SIGTERM when the batch
// process dies, even by SIGKILL, so no child outlives its shard.
func setParentDeath(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
