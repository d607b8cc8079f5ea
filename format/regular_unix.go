//go:build unix

package format

import (
	"os"
	"syscall"
)

// openNoWait makes opening a named pipe return at once instead of waiting
// for a writer; it changes nothing for a regular file.
const openNoWait = syscall.O_NONBLOCK

// clearNoWait puts a file opened with openNoWait back into blocking mode,
// as os.Open leaves regular files.
func clearNoWait(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = syscall.SetNonblock(int(fd), false) }); err != nil {
		return err
	}
	return serr
}
