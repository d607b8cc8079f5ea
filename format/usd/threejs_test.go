package usd

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
)

// played is what .ci/play-usd.mjs reports of a file three.js loaded.
type played struct {
	Meshes []struct {
		Name       string   `json:"name"`
		Skinned    bool     `json:"skinned"`
		Vertices   int      `json:"vertices"`
		Bones      int      `json:"bones"`
		Map        bool     `json:"map"`
		Materials  int      `json:"materials"`
		Attributes []string `json:"attributes"`
	} `json:"meshes"`
	Clips []struct {
		Name     string  `json:"name"`
		Duration float64 `json:"duration"`
		Tracks   int     `json:"tracks"`
	} `json:"clips"`
	Images []int `json:"images"`
	// Frames holds the positions three.js skinned: the rest pose, then
	// every frame of every clip, each 3·Vertices float32.
	Frames [][]float32 `json:"-"`
}

// playThree has three.js's USDLoader load path and play every clip of r
// at r's frame times.
func playThree(t *testing.T, path string, r *rig.Rig) played {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	_, err := exec.LookPath("node")
	_, perr := os.Stat(filepath.Join(root, ".ci", "node_modules", "three", "examples", "jsm", "loaders", "USDLoader.js"))
	shareddata.RequireTool(t, err == nil && perr == nil, "node with the npm package three (USDLoader) in .ci/node_modules")
	bin := filepath.Join(t.TempDir(), "frames.bin")
	args := []string{filepath.Join(root, ".ci", "play-usd.mjs"), path, bin}
	for k, c := range r.Clips {
		args = append(args, fmt.Sprintf("%d=%v:%d", k, c.FPS, c.Frames))
	}
	out, err := exec.Command("node", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("three.js: %v\n%s", err, out)
	}
	var p played
	if err := json.Unmarshal(out, &p); err != nil {
		t.Fatalf("play-usd.mjs printed %q: %v", out, err)
	}
	if len(p.Meshes) != 1 {
		t.Fatalf("three.js sees %d meshes", len(p.Meshes))
	}
	raw, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	n := 3 * p.Meshes[0].Vertices
	if n == 0 || len(raw)%(4*n) != 0 {
		t.Fatalf("%d bytes of positions for %d vertices", len(raw), n/3)
	}
	for at := 0; at < len(raw); at += 4 * n {
		f := make([]float32, n)
		for i := range f {
			f[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[at+4*i:]))
		}
		p.Frames = append(p.Frames, f)
	}
	return p
}

// threeVertices maps each vertex three.js holds to the rig's vertices at
// its rest position (three.js splits the mesh per triangle corner;
// coincident vertices, as at a glTF seam, are all candidates).
func threeVertices(t *testing.T, rest []float32, m *mesh.Mesh) [][]int {
	t.Helper()
	at := map[[3]float32][]int{}
	for i, v := range m.Verts {
		k := [3]float32{float32(v[0]), float32(v[1]), float32(v[2])}
		at[k] = append(at[k], i)
	}
	out := make([][]int, len(rest)/3)
	for i := range out {
		out[i] = at[[3]float32{rest[3*i], rest[3*i+1], rest[3*i+2]}]
		if out[i] == nil {
			t.Fatalf("three.js's vertex %d rests at %v, where the rig has no vertex", i, rest[3*i:3*i+3])
		}
	}
	return out
}

// TestThreePlays has three.js load and play what we write — the biped
// (.usda), the tube with two clips at two rates (.usda), the surfaced tube
// (.usdz: two parts, two materials, a texture), CesiumMan with its
// texture (.usdz) and the tube squashing and stretching (scale tracks,
// .usda), and the first three and the last as binary .usdc: one skinned mesh
// with every joint as a bone, a material
// per part, UVs and normals when we have them, a base colour map (with
// the texture's bytes from a .usdz),
// a clip per clip lasting its frames, every triangle corner at rest on a
// vertex of ours, and every frame skinned by three.js where our own
// playback (FK and LBS) puts it, within RMSE% 1e-5 — times R/d when above
// 1, as in TestReadRoundTrip: the file holds float32.
func TestThreePlays(t *testing.T) {
	rigs := testRigs(t)
	cases := []struct {
		name, ext string
		rig       func(t *testing.T) *rig.Rig
	}{
		{"biped", ".usda", func(*testing.T) *rig.Rig { return rigs["biped"] }},
		{"tube", ".usda", func(*testing.T) *rig.Rig { return rigs["tube"] }},
		{"surfaced", ".usdz", func(t *testing.T) *rig.Rig { return surfaceRig(t) }},
		{"biped", ".usdc", func(*testing.T) *rig.Rig { return rigs["biped"] }},
		{"tube", ".usdc", func(*testing.T) *rig.Rig { return rigs["tube"] }},
		{"surfaced", ".usdc", func(t *testing.T) *rig.Rig { return surfaceRig(t) }},
		{"squash", ".usda", func(t *testing.T) *rig.Rig { return squashTube(t) }},
		{"squash", ".usdc", func(t *testing.T) *rig.Rig { return squashTube(t) }},
		{"CesiumMan", ".usdz", func(t *testing.T) *rig.Rig {
			in, err := format.ReadScene(shareddata.Path(t, filepath.Join("gltf", "CesiumMan.glb")), format.SceneOptions{})
			if err != nil {
				t.Fatal(err)
			}
			return in.Rig
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name+tc.ext, func(t *testing.T) {
			r := tc.rig(t)
			path := filepath.Join(t.TempDir(), tc.name+tc.ext)
			if err := format.WriteFile(path, r, format.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			p := playThree(t, path, r)
			if r.HasScale() {
				// Scale tracks are half3 in the file: three.js plays the
				// rounded ones, which the rig read back holds.
				sc, err := format.ReadScene(path, format.SceneOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if sc.Rig == nil || !sc.Rig.HasScale() {
					t.Fatal("the file read back has no scale tracks") // TestScaleTracks: they are the rig's
				}
				r = sc.Rig
			}
			m := p.Meshes[0]
			if !m.Skinned || m.Bones != r.Skeleton.Len() || m.Vertices != 3*len(r.Mesh.Tris) {
				t.Fatalf("three.js sees %+v; want a skinned mesh of %d bones and %d triangle corners", m, r.Skeleton.Len(), 3*len(r.Mesh.Tris))
			}
			if len(p.Clips) != len(r.Clips) {
				t.Fatalf("three.js sees clips %+v; want %d", p.Clips, len(r.Clips))
			}
			for k, c := range r.Clips {
				if want := float64(c.Frames-1) / c.FPS; math.Abs(p.Clips[k].Duration-want) > 1e-6*max(1, want) {
					t.Errorf("clip %d (%q) lasts %v s in three.js, want %v", k, c.Name, p.Clips[k].Duration, want)
				}
			}
			if s := r.Mesh.Surface; s != nil {
				if len(s.Images) > 0 && (!m.Map || tc.ext == ".usdz" && (len(p.Images) != 1 || p.Images[0] != len(s.Images[0].Data))) {
					t.Errorf("three.js: base colour map %v, image bytes %v; want the %d-byte texture", m.Map, p.Images, len(s.Images[0].Data))
				}
				if m.Materials != max(1, len(s.Parts)) || (len(s.UVs) > 0) != slices.Contains(m.Attributes, "uv") || (s.Normals != nil) != slices.Contains(m.Attributes, "normal") {
					t.Errorf("three.js sees %d materials and attributes %v; want %d, UVs %v, normals %v", m.Materials, m.Attributes, max(1, len(s.Parts)), len(s.UVs) > 0, s.Normals != nil)
				}
			}
			cand := threeVertices(t, p.Frames[0], r.Mesh)
			d := mesh.Diagonal(r.Mesh.Verts)
			var sum float64
			var count int
			worst := 0.0
			frame := 1
			ours := make([]linalg.Vec3, len(r.Mesh.Verts))
			for c := range r.Clips {
				for f := 0; f < r.Clips[c].Frames; f++ {
					ours = r.Frame(ours, c, f)
					got := p.Frames[frame]
					frame++
					for i, cs := range cand {
						g := linalg.Vec3{float64(got[3*i]), float64(got[3*i+1]), float64(got[3*i+2])}
						best := math.Inf(1)
						for _, v := range cs {
							best = min(best, g.Dist(ours[v]))
						}
						sum += best * best
						count++
						worst = max(worst, best)
					}
				}
			}
			rmse := 100 * math.Sqrt(sum/float64(count)) / d
			limit := 1e-5 * math.Max(1, farthest(r)/d)
			t.Logf("%s: three.js plays %d frames; difference RMSE%% %.3g, Max%% %.3g (limit %.2g)", tc.name, frame-1, rmse, 100*worst/d, limit)
			if !(rmse <= limit) {
				t.Errorf("three.js's playback differs from ours by RMSE%% %g (Max%% %g), above %g", rmse, 100*worst/d, limit)
			}
		})
	}
}
