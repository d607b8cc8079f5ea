//go:build !linux

package batch

import (
	"os/exec"
	"runtime"
)

var maxrssUnit int64 = map[bool]int64{true: 1, false: 1024}[runtime.GOOS == "darwin"]

// setParentDeath does nothing where the kernel has no Pdeathsig: a killed
// shard's children finish their item (their writes are still atomic).
func setParentDeath(cmd *exec.Cmd) {}

func lockThread() func() { return func() {} }
