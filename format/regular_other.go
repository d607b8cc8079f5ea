//go:build !unix

package format

import "os"

// openNoWait is 0 where the file system holds no named pipes to wait on
// (Windows); the check after opening still refuses what is not a regular
// file.
const openNoWait = 0

func clearNoWait(*os.File) error { return nil }
