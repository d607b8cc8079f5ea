package usd

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
)

var update = flag.Bool("update", false, "rewrite testdata/tiny.usda")

// tinyRig is a tetrahedron on two joints, turning its tip joint over two
// frames.
func tinyRig(t testing.TB) *rig.Rig {
	m, err := mesh.New([]linalg.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, [][]int{{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}})
	if err != nil {
		t.Fatal(err)
	}
	r := &rig.Rig{Mesh: m, Skeleton: rig.Skeleton{Joints: []rig.Joint{
		{Name: "root", Parent: rig.NoParent},
		{Name: "tip", Parent: 0, Head: linalg.Vec3{0, 0, 0.5}},
	}}}
	for i := range m.Verts {
		w := m.Verts[i][2]
		r.Skin = append(r.Skin, rig.Influence{Joint: [4]rig.JointID{0, 1}, Weight: [4]float64{1 - w, w}})
	}
	c := rig.NewClip(&r.Skeleton, "bend", 2, 2)
	c.Rotation[3] = linalg.QuatFromAxisAngle(linalg.Vec3{1, 0, 0}, 0.5)
	r.Clips = []rig.Clip{c}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestTinyGolden keeps the writer's output for the tiny rig readable in
// testdata/tiny.usda (-update rewrites it) and reads it back.
func TestTinyGolden(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, tinyRig(t), format.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "tiny.usda")
	if *update {
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), want) {
		t.Fatalf("the tiny rig's layer differs from %s (go test -update after checking the change):\n%s", path, b.String())
	}
	if _, err := Read(bytes.NewReader(want)); err != nil {
		t.Fatal(err)
	}
}

// TestReadRefuses reads broken or foreign variants of the tiny layer:
// each is one error naming the line of the change (the line holding
// anchor in the changed text) and what is wrong, and nothing panics.
func TestReadRefuses(t *testing.T) {
	base, err := os.ReadFile(filepath.Join("testdata", "tiny.usda"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, old, new, anchor, want string
	}{
		{"header", "#usda 1.0", "#sdf 1.0", "#sdf", "not a usda layer"},
		{"over", `def Mesh "Body"`, `over Mesh "Body"`, `over Mesh`, `"over" prims are not read`},
		{"unclosed string", `"Written by meshrig"`, `"Written by meshrig`, "Written by", "string not closed on its line"},
		{"bad number", "timeCodesPerSecond = 2", "timeCodesPerSecond = 2.x", "timeCodesPerSecond", `bad number "2.x"`},
		{"stray character", "upAxis = \"Y\"", "upAxis = $Y", "upAxis", `unexpected character '$'`},
		{"no defaultPrim", `defaultPrim = "Rig"`, `defaultPrim = "Body"`, "#usda", `no prim "Body"`},
		{"not a SkelRoot", `def SkelRoot "Rig"`, `def Xform "Rig"`, `def Xform`, `is a "Xform", want a SkelRoot`},
		{"second root joint", `["root", "root/tip"]`, `["root", "tip"]`, `uniform token[] joints = ["root", "tip"]`, `joint "tip" is a second root`},
		{"orphan joint", `["root", "root/tip"]`, `["root", "root/arm/tip"]`, `uniform token[] joints = ["root", "root/arm`, `comes before its parent "root/arm"`},
		{"rotated bind", "uniform matrix4d[] bindTransforms = [( (1, 0, 0, 0)", "uniform matrix4d[] bindTransforms = [( (0, 1, 0, 0)", "bindTransforms", "rotates, scales or projects"},
		{"short bind", ", ( (1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0.5, 1) )]\n        uniform matrix4d[] restTransforms", "]\n        uniform matrix4d[] restTransforms", "bindTransforms", "bindTransforms has 1 values, want 2"},
		{"wrong type", "quatf[] rotations", "float4[] rotations", "float4[] rotations", "rotations are float4[]"},
		{"missing samples", "float3[] translations.timeSamples = {", "float3[] translationz.timeSamples = {", `def SkelAnimation "bend"`, "needs rotations and translations"},
		{"collapsed joint", "half3[] scales = [(1, 1, 1), (1, 1, 1)]", "half3[] scales = [(1, 1, 1), (1, 0, 1)]", "half3[] scales", "scales a joint by 0"},
		{"face out of range", "int[] faceVertexIndices = [0, 2, 1", "int[] faceVertexIndices = [0, 2, 9", "faceVertexIndices", "vertex index 9 out of range (4 points)"},
		{"open face list", "int[] faceVertexCounts = [3, 3, 3, 3]", "int[] faceVertexCounts = [3, 3, 3, 2]", "faceVertexCounts", "face 4 has 2 vertices"},
		{"joint index", "int[] primvars:skel:jointIndices = [0, 1", "int[] primvars:skel:jointIndices = [5, 1", "jointIndices", "point 1: joint index 5 out of range (2 joints)"},
		{"element size", "elementSize = 4", "elementSize = 3", "jointWeights", "jointIndices have elementSize 3, jointWeights 4"},
		{"weights", "float[] primvars:skel:jointWeights = [1, 0", "float[] primvars:skel:jointWeights = [3, 0", `def SkelRoot`, "vertex 1: weights sum to"},
		{"unclosed prim", "\n}\n", "\n", `def SkelRoot`, `prim "Rig" is not closed`},
		{"missing comma", "[0, 2, 1, 0, 1, 3", "[0, 2, 1 0, 1, 3", "faceVertexIndices", "expected ',' or \"]\", found '0'"},
		{"bad path", "rel skel:skeleton = </Rig/Skeleton>", "rel skel:skeleton = </Rig/Skeleton", "rel skel:skeleton", "has no closing '>'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := string(base)
			if !strings.Contains(text, tc.old) {
				t.Fatalf("the tiny layer has no %q", tc.old)
			}
			text = strings.Replace(text, tc.old, tc.new, 1)
			line := 1 + strings.Count(text[:strings.Index(text, tc.anchor)], "\n")
			_, err := Read(strings.NewReader(text))
			var pe *format.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v, want a ParseError", err)
			}
			if pe.Line != line || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %q at line %d, want line %d and %q", err, pe.Line, line, tc.want)
			}
		})
	}
}
