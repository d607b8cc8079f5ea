package main

import (
	"strings"
)

// maxFPS bounds --fps: past it a frame time no longer fits the float32
// key times files store.
const maxFPS = 10000

// check refuses bad input flags before any input is read.
func (l *loadFlags) check() error {
	return floatOrZero("--fps", l.fps, 0.01, maxFPS)
}

// restFile is the file --rest names, or "" for none or frame:K.
func (l *loadFlags) restFile() string {
	if strings.HasPrefix(l.rest, "frame:") {
		return ""
	}
	return l.rest
}
