package usd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
)

// seen is what .ci/load-usd.mjs reports TinyUSDZ saw in one file.
type seen struct {
	File   string `json:"file"`
	Error  string `json:"error"`
	Layer  string `json:"layer"`
	Meshes []struct {
		Path      string `json:"path"`
		Points    int    `json:"points"`
		Faces     int    `json:"faces"`
		Texcoords int    `json:"texcoords"`
		Material  int    `json:"materialId"`
	} `json:"meshes"`
	Materials []struct {
		Texture int `json:"texture"`
	} `json:"materials"`
	Images []struct {
		URI           string `json:"uri"`
		Width, Height int
		Decoded       bool `json:"decoded"`
	} `json:"images"`
	Prims []struct {
		Path   string `json:"path"`
		Type   string `json:"type"`
		Joints int    `json:"joints"`
	} `json:"prims"`
}

// tinyUSDZ loads files with TinyUSDZ and returns what it saw in each,
// skipping the test when node or the npm package is missing (failing
// under MESHRIG_REQUIRE_TOOLS=1).
func tinyUSDZ(t *testing.T, files ...string) []seen {
	return tinyUSDZArgs(t, nil, files...)
}

// tinyUSDZArgs is tinyUSDZ with load-usd.mjs's flags.
func tinyUSDZArgs(t *testing.T, flags []string, files ...string) []seen {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	_, err := exec.LookPath("node")
	_, perr := os.Stat(filepath.Join(root, ".ci", "node_modules", "tinyusdz"))
	shareddata.RequireTool(t, err == nil && perr == nil, "node with the npm package tinyusdz in .ci/node_modules")
	args := append(append([]string{filepath.Join(root, ".ci", "load-usd.mjs")}, flags...), files...)
	out, err := exec.Command("node", args...).Output()
	var got []seen
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var s seen
		if jerr := json.Unmarshal(sc.Bytes(), &s); jerr != nil {
			t.Fatalf("load-usd.mjs printed %q: %v", sc.Text(), jerr)
		}
		got = append(got, s)
	}
	if err != nil {
		t.Fatalf("TinyUSDZ fails: %v\n%s", err, out)
	}
	if len(got) != len(files) {
		t.Fatalf("TinyUSDZ reported %d files of %d:\n%s", len(got), len(files), out)
	}
	return got
}

// checkSeen requires TinyUSDZ to have seen r's mesh — every point (its
// render mesh splits a point whose face-vertices carry different values,
// so with per-corner attributes up to one point per face-vertex) and
// every triangle (it triangulates) —, its Skeleton with every joint and
// one SkelAnimation per clip, each over every joint.
func checkSeen(t *testing.T, s seen, r *rig.Rig) {
	t.Helper()
	if s.Error != "" {
		t.Fatalf("%s: TinyUSDZ: %s", s.File, s.Error)
	}
	lo, hi := len(r.Mesh.Verts), len(r.Mesh.Verts)
	if sf := r.Mesh.Surface; sf != nil && (sf.Normals != nil && sf.Normals.PerCorner() || slices.ContainsFunc(sf.UVs, func(a mesh.Attr[[2]float32]) bool { return a.PerCorner() })) {
		hi = len(newFaces(r.Mesh).verts)
	}
	if len(s.Meshes) != 1 || s.Meshes[0].Path != "/Rig/Body" || s.Meshes[0].Points < lo || s.Meshes[0].Points > hi || s.Meshes[0].Faces != len(r.Mesh.Tris) {
		t.Errorf("%s: TinyUSDZ sees meshes %+v; want /Rig/Body with %d to %d points and %d triangles", s.File, s.Meshes, lo, hi, len(r.Mesh.Tris))
	}
	skels, anims := 0, 0
	for _, p := range s.Prims {
		switch p.Type {
		case "Skeleton":
			skels++
			if p.Path != "/Rig/Skeleton" || p.Joints != r.Skeleton.Len() {
				t.Errorf("%s: TinyUSDZ sees skeleton %s with %d joints, want /Rig/Skeleton with %d", s.File, p.Path, p.Joints, r.Skeleton.Len())
			}
		case "SkelAnimation":
			anims++
			if p.Joints != r.Skeleton.Len() {
				t.Errorf("%s: TinyUSDZ sees animation %s over %d joints, want %d", s.File, p.Path, p.Joints, r.Skeleton.Len())
			}
		}
	}
	if skels != 1 || anims != len(r.Clips) {
		t.Errorf("%s: TinyUSDZ sees %d skeletons and %d animations, want 1 and %d: %+v", s.File, skels, anims, len(r.Clips), s.Prims)
	}
}

// TestTinyUSDZLoads writes every test rig, the tube with a surface
// (two UV sets, normals, two materials on two GeomSubsets, a texture),
// the tube with scale tracks
// and a tetrahedron without animation, as .usda, .usdz and .usdc, and has
// TinyUSDZ load them all.
func TestTinyUSDZLoads(t *testing.T) {
	dir := t.TempDir()
	rigs := testRigs(t)
	rigs["surfaced"] = surfaceRig(t)
	rigs["squash"] = squashTube(t)
	static := tinySurfaced(t)
	static.Clips = nil
	rigs["static"] = static
	var files []string
	var want []*rig.Rig
	for name, r := range rigs {
		for _, ext := range []string{".usda", ".usdz", ".usdc"} {
			p := filepath.Join(dir, name+ext)
			if err := format.WriteFile(p, r, format.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			files = append(files, p)
			want = append(want, r)
		}
	}
	for k, s := range tinyUSDZ(t, files...) {
		checkSeen(t, s, want[k])
	}
}

// TestUSDCSameLayer writes the test rigs, the surfaced tube and the tiny
// rig as .usda and .usdc: TinyUSDZ reads the same layer from both — the
// one it prints back is the same text, every value, time sample,
// connection and relationship.
func TestUSDCSameLayer(t *testing.T) {
	dir := t.TempDir()
	rigs := testRigs(t)
	rigs["surfaced"] = surfaceRig(t)
	rigs["squash"] = squashTube(t) // half3 scales sampled
	rigs["tiny"] = tinyRig(t)
	var files []string
	for name, r := range rigs {
		for _, ext := range []string{".usda", ".usdc"} {
			p := filepath.Join(dir, name+ext)
			if err := format.WriteFile(p, r, format.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			files = append(files, p)
		}
	}
	got := tinyUSDZArgs(t, []string{"--layer"}, files...)
	for k := 0; k < len(got); k += 2 {
		a, c := got[k], got[k+1]
		if a.Error != "" || c.Error != "" || a.Layer == "" {
			t.Fatalf("%s: %q; %s: %q", a.File, a.Error, c.File, c.Error)
		}
		if a.Layer != c.Layer {
			la, lc := strings.Split(a.Layer, "\n"), strings.Split(c.Layer, "\n")
			for i := range min(len(la), len(lc)) {
				if la[i] != lc[i] {
					t.Fatalf("%s and %s differ at line %d:\n%.200s\n%.200s", a.File, c.File, i+1, la[i], lc[i])
				}
			}
			t.Fatalf("%s has %d lines, %s %d", a.File, len(la), c.File, len(lc))
		}
	}
}
