package libigl

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
)

func testdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestReadTGF(t *testing.T) {
	g, err := ReadTGF(bytes.NewReader(testdata(t, "chain.tgf")))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Joints) != 3 || g.Joints[2] != (linalg.Vec3{2, 0, 0}) || len(g.Bones) != 2 || g.Bones[1] != [2]int{1, 2} {
		t.Fatalf("%+v", g)
	}
	// Extra fields on joint and bone lines (as libigl writes) are ignored.
	g, err = ReadTGF(strings.NewReader("1 0 0 0 9 9 9\n2 0 1 0 1 2 3\n#\n1 2 1 0 0\n#\n"))
	if err != nil || len(g.Joints) != 2 || g.Bones[0] != [2]int{0, 1} {
		t.Fatalf("extra fields: %v %+v", err, g)
	}
}

func TestReadTGFErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		line     int
		want     string
	}{
		{"empty", "", 0, "no joints"},
		{"short joint", "1 0 0\n", 1, "index and 3 coordinates"},
		{"coordinate", "1 0 0 x\n", 1, `bad coordinate "x"`},
		{"infinite", "1 0 0 inf\n", 1, "bad coordinate"},
		{"bone range", string(testdata(t, "invalid-bone.tgf")), 4, "bad bone"},
		{"bone to itself", "1 0 0 0\n2 1 0 0\n#\n1 1\n#\n", 4, "bad bone"},
		{"short bone", "1 0 0 0\n2 1 0 0\n#\n1\n#\n", 4, "two joint indices"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadTGF(strings.NewReader(tc.in))
			var pe *format.ParseError
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want a ParseError containing %q", err, tc.want)
			}
			if pe.Line != tc.line {
				t.Errorf("line %d, want %d", pe.Line, tc.line)
			}
		})
	}
}
