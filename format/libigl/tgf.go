package libigl

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
)

// TGF is a skeleton as libigl stores it.
type TGF struct {
	// Joints are the joint positions, in file order.
	Joints []linalg.Vec3
	// Bones are directed edges (start, end) between joints, 0-based, in
	// file order: bone k owns weight column k and transform k.
	Bones [][2]int
}

// ReadTGF parses a TGF file: lines "index x y z [ignored…]", a "#" line,
// then bone lines "a b [ignored…]" with 1-based joint indices, then "#".
// Joints are numbered in file order, as libigl's readTGF does (the index
// field is not used). Errors are *format.ParseError with the line.
func ReadTGF(r io.Reader) (*TGF, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	t := &TGF{}
	section, line := 0, 0
	fail := func(msg string, a ...any) error {
		return &format.ParseError{Line: line, Offset: -1, Err: fmt.Errorf(msg, a...)}
	}
	for sc.Scan() {
		line++
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		if f[0] == "#" {
			section++
			continue
		}
		switch section {
		case 0:
			if len(f) < 4 {
				return nil, fail("joint line needs an index and 3 coordinates")
			}
			var v linalg.Vec3
			for k := 0; k < 3; k++ {
				x, err := strconv.ParseFloat(f[k+1], 64)
				if err != nil || x-x != 0 {
					return nil, fail("bad coordinate %q", f[k+1])
				}
				v[k] = x
			}
			t.Joints = append(t.Joints, v)
		case 1:
			if len(f) < 2 {
				return nil, fail("bone line needs two joint indices")
			}
			a, e1 := strconv.Atoi(f[0])
			b, e2 := strconv.Atoi(f[1])
			if e1 != nil || e2 != nil || a < 1 || b < 1 || a > len(t.Joints) || b > len(t.Joints) || a == b {
				return nil, fail("bad bone %q %q (%d joints)", f[0], f[1], len(t.Joints))
			}
			t.Bones = append(t.Bones, [2]int{a - 1, b - 1})
		}
	}
	if err := sc.Err(); err != nil {
		line++
		return nil, fail("%w", err)
	}
	if len(t.Joints) == 0 {
		return nil, fail("no joints")
	}
	return t, nil
}
