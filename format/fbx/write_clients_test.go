package fbx

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/format/gltf"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
)

// TestWriteAssimp: assimp reads the FBX we write (clientRigs: rigid, and
// with scale tracks) and converts it to glTF;
// that glTF, read by our glTF reader, plays our rig within RMSE% 0.01 of
// d (float32 keys on both sides) and keeps its UV sets, normals and
// materials. assimp reorders vertices (it splits and
// re-welds them in face order), so they are matched by rest position.
func TestWriteAssimp(t *testing.T) {
	_, err := exec.LookPath("assimp")
	shareddata.RequireTool(t, err == nil, "assimp (Debian package assimp-utils)")
	for _, c := range clientRigs(t) {
		t.Run(c.name, func(t *testing.T) { writeAssimp(t, c.r) })
	}
}

func writeAssimp(t *testing.T, r *rig.Rig) {
	dir := t.TempDir()
	var buf bytes.Buffer
	if err := Write(&buf, r, format.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	in, out := filepath.Join(dir, "tube.fbx"), filepath.Join(dir, "tube.glb")
	if err := os.WriteFile(in, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := exec.Command("assimp", "export", in, out, "-fglb2").CombinedOutput(); err != nil {
		t.Fatalf("assimp export: %v\n%s", err, b)
	}
	rmse := playbackDiff(t, r, dir, "tube.glb", 1)
	if rmse > 0.01 {
		t.Errorf("assimp plays our FBX at RMSE%% %v of ours", rmse)
	}
	t.Logf("assimp's playback vs ours: RMSE%% %.2g", rmse)
}

// playbackDiff reads a glTF another tool made of the FBX we wrote of r
// and returns the RMSE% (of d) between its playback, divided by scale
// (the tool's change of units), and r's, over their vertices. Vertices
// are matched by rest position: converters split them where attributes
// differ per corner and re-weld them in face order.
func playbackDiff(t *testing.T, r *rig.Rig, dir, name string, scale float64) float64 {
	t.Helper()
	sc, err := gltf.ReadScene(os.DirFS(dir), name, format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkSurface(t, name, sc.Mesh.Surface)
	if sc.Rig == nil || sc.Rig.Skeleton.Len() < r.Skeleton.Len() {
		t.Fatalf("%s has no rig of %d joints", name, r.Skeleton.Len())
	}
	want := testrig.Play(t, r)
	got := sc.Sequence
	if got.F() != want.F() || got.N() < want.N() {
		t.Fatalf("%s: %d frames of %d vertices, want %d of at least %d", name, got.F(), got.N(), want.F(), want.N())
	}
	// Each of their vertices is one of ours (split copies included).
	src := make([]int, got.N())
	hit := make([]bool, want.N())
	for k, w := range got.Rest.Verts {
		best, bd := -1, math.Inf(1)
		for i, v := range want.Rest.Verts {
			if d := v.Dist(w.Scale(1 / scale)); d < bd {
				best, bd = i, d
			}
		}
		if bd > 1e-5 {
			t.Fatalf("%s: vertex %d at %v is none of ours (nearest %g away)", name, k, w, bd)
		}
		src[k] = best
		hit[best] = true
	}
	for i, h := range hit {
		if !h {
			t.Fatalf("%s lost our vertex %d", name, i)
		}
	}
	var sum float64
	for f := 0; f < want.F(); f++ {
		a, b := want.FrameInto(nil, f), got.FrameInto(nil, f)
		for k := range b {
			sum += a[src[k]].Sub(b[k].Scale(1 / scale)).Norm2()
		}
	}
	return 100 * math.Sqrt(sum/float64(got.N()*want.F())) / want.Diagonal()
}

// fbx2gltf returns an executable FBX2glTF: $MESHRIG_FBX2GLTF, FBX2glTF on
// PATH, or the Linux binary npm's fbx2gltf 0.9.7 ships in .ci/node_modules
// (copied and made executable: npm leaves it without the execute bit).
func fbx2gltf(t *testing.T) string {
	if bin := os.Getenv("MESHRIG_FBX2GLTF"); bin != "" {
		return bin
	}
	if bin, err := exec.LookPath("FBX2glTF"); err == nil {
		return bin
	}
	_, file, _, _ := runtime.Caller(0)
	shipped := filepath.Join(filepath.Dir(file), "..", "..", ".ci", "node_modules", "fbx2gltf", "bin", "Linux", "FBX2glTF")
	b, err := os.ReadFile(shipped)
	shareddata.RequireTool(t, err == nil, "FBX2glTF (npm fbx2gltf 0.9.7 in .ci/node_modules, FBX2glTF on PATH, or $MESHRIG_FBX2GLTF)")
	bin := filepath.Join(t.TempDir(), "FBX2glTF")
	if err := os.WriteFile(bin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

// TestWriteFBXSDK: Autodesk's FBX SDK, through FBX2glTF, reads the FBX we
// write (clientRigs): its glTF plays our rig within RMSE% 0.01 and keeps its UV sets,
// normals and materials. FBX2glTF writes metres
// from the file's centimetres (UnitScaleFactor 1), a scale of 0.01.
func TestWriteFBXSDK(t *testing.T) {
	bin := fbx2gltf(t)
	for _, c := range clientRigs(t) {
		t.Run(c.name, func(t *testing.T) { writeFBXSDK(t, c.r, bin) })
	}
}

func writeFBXSDK(t *testing.T, r *rig.Rig, bin string) {
	dir := t.TempDir()
	var buf bytes.Buffer
	if err := Write(&buf, r, format.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "tube.fbx")
	if err := os.WriteFile(in, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-b", "--anim-framerate", "bake30", "-i", in, "-o", filepath.Join(dir, "sdk"))
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("FBX2glTF: %v\n%s", err, b)
	}
	rmse := playbackDiff(t, r, dir, "sdk.glb", 0.01)
	if rmse > 0.01 {
		t.Errorf("the FBX SDK plays our FBX at RMSE%% %v of ours", rmse)
	}
	t.Logf("FBX SDK's playback vs ours: RMSE%% %.2g", rmse)
}

// checkSurface: the other tool kept withSurface's two UV sets, normals,
// materials by name (blue's colour; red's texture, the embedded image)
// and the image.
func checkSurface(t *testing.T, name string, s *mesh.Surface) {
	t.Helper()
	switch {
	case s == nil:
		t.Errorf("%s has no surface", name)
	case len(s.UVs) != 2 || s.Normals == nil:
		t.Errorf("%s: %d UV sets, normals %v; want 2 and normals", name, len(s.UVs), s.Normals != nil)
	case len(s.Materials) != 2 || s.Materials[0].Name != "red" || s.Materials[1].Name != "blue" || s.Materials[1].BaseColor != [4]float32{0, 0, 1, 1}:
		t.Errorf("%s: %d materials, want red and blue", name, len(s.Materials))
	case s.Materials[0].BaseColorTexture == nil || len(s.Images) != 1:
		t.Errorf("%s: red's texture lost (%d images)", name, len(s.Images))
	}
}

// TestWriteBlender: Debian's Blender (headless) imports the FBX we write
// (clientRigs)
// with the right bone count, an action, our UV sets, materials and
// embedded texture, and
// its skinned mesh at several frames is our playback within RMSE% 0.01 of
// d. Blender's importer turns Y up into Z up ((x, y, z) → (x, −z, y)),
// takes the file's centimetres as 0.01 m, keeps the control points' order,
// and starts animation at frame 1 (its default offset), so our frame f is
// its frame f+1.
func TestWriteBlender(t *testing.T) {
	bin, err := exec.LookPath("blender")
	shareddata.RequireTool(t, err == nil, "blender (Debian package blender, with python3-numpy)")
	for _, c := range clientRigs(t) {
		t.Run(c.name, func(t *testing.T) { writeBlender(t, c.r, bin) })
	}
}

func writeBlender(t *testing.T, r *rig.Rig, bin string) {
	dir := t.TempDir()
	var buf bytes.Buffer
	if err := Write(&buf, r, format.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	in, out := filepath.Join(dir, "tube.fbx"), filepath.Join(dir, "blender.json")
	if err := os.WriteFile(in, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	frames := []int{0, 5, 11, 17, 23}
	list := ""
	for k, f := range frames {
		if k > 0 {
			list += ","
		}
		list += strconv.Itoa(f + 1)
	}
	cmd := exec.Command(bin, "-b", "--factory-startup", "--python", filepath.Join("testdata", "blender_sample.py"), "--", in, out, list)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("blender: %v\n%s", err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Bones     int                     `json:"bones"`
		Actions   []string                `json:"actions"`
		UVLayers  []string                `json:"uv_layers"`
		Materials []string                `json:"materials"`
		Images    [][]any                 `json:"images"`
		Frames    map[string][][3]float64 `json:"frames"`
	}
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	if res.Bones != r.Skeleton.Len() || len(res.Actions) != 1 {
		t.Errorf("Blender sees %d bones and actions %q; want %d and one", res.Bones, res.Actions, r.Skeleton.Len())
	}
	if len(res.UVLayers) != 2 || len(res.Materials) != 2 || res.Materials[0] != "red" {
		t.Errorf("Blender sees UV layers %q, materials %q", res.UVLayers, res.Materials)
	}
	// The embedded 2×2 texture is an image Blender decoded (Blender 3.4
	// makes two copies of it, one for the Video and one for the Texture).
	if len(res.Images) == 0 || fmt.Sprint(res.Images[0][1]) != "[2 2]" {
		t.Errorf("Blender sees images %v, want the 2×2 texture", res.Images)
	}
	want := testrig.Play(t, r)
	var sum float64
	n := 0
	for _, f := range frames {
		got := res.Frames[strconv.Itoa(f+1)]
		if len(got) != want.N() {
			t.Fatalf("frame %d: Blender has %d vertices, we %d", f, len(got), want.N())
		}
		for i, v := range want.FrameInto(nil, f) {
			g := linalg.Vec3{got[i][0], got[i][2], -got[i][1]}.Scale(100)
			sum += g.Sub(v).Norm2()
			n++
		}
	}
	rmse := 100 * math.Sqrt(sum/float64(n)) / want.Diagonal()
	if rmse > 0.01 {
		t.Errorf("Blender plays our FBX at RMSE%% %v of ours", rmse)
	}
	t.Logf("Blender's playback vs ours at frames %v: RMSE%% %.2g", frames, rmse)
}

// clientRigs are the rigs the other tools read: testrig's tube, and the
// tube whose middle joint squashes and stretches (scale tracks, Lcl
// Scaling curves), each with withSurface's UV sets and materials.
func clientRigs(t *testing.T) []struct {
	name string
	r    *rig.Rig
} {
	tube, squash := testrig.Tube(t, 24, linalg.Vec3{0.3, -0.2, 0.1}), squashTube(t)
	withSurface(t, tube)
	withSurface(t, squash)
	return []struct {
		name string
		r    *rig.Rig
	}{{"rigid", tube}, {"scaled", squash}}
}
