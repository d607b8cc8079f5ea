package fbx

import (
	"bytes"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/format/gltf"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/linalg"
)

// TestWriteAssimp: assimp reads the FBX we write and converts it to glTF;
// that glTF, read by our glTF reader, plays our rig within RMSE% 0.01 of
// d (float32 keys on both sides). assimp reorders vertices (it splits and
// re-welds them in face order), so they are matched by rest position.
func TestWriteAssimp(t *testing.T) {
	_, err := exec.LookPath("assimp")
	shareddata.RequireTool(t, err == nil, "assimp (Debian package assimp-utils)")
	dir := t.TempDir()
	r := testrig.Tube(t, 24, linalg.Vec3{0.3, -0.2, 0.1})
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
	sc, err := gltf.ReadScene(os.DirFS(dir), "tube.glb", format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if sc.Rig == nil || sc.Rig.Skeleton.Len() != r.Skeleton.Len() {
		t.Fatalf("assimp's glTF has no rig of %d joints", r.Skeleton.Len())
	}
	want := testrig.Play(t, r)
	got := sc.Sequence
	if got.F() != want.F() || got.N() != want.N() {
		t.Fatalf("assimp's glTF: %d frames of %d vertices, want %d of %d", got.F(), got.N(), want.F(), want.N())
	}
	perm := make([]int, want.N())
	for i, v := range want.Rest.Verts {
		best, bd := -1, math.Inf(1)
		for k, w := range got.Rest.Verts {
			if d := v.Dist(w); d < bd {
				best, bd = k, d
			}
		}
		if bd > 1e-6 {
			t.Fatalf("vertex %d at %v has no match in assimp's mesh (nearest %g away)", i, v, bd)
		}
		perm[i] = best
	}
	var sum float64
	for f := 0; f < want.F(); f++ {
		a, b := want.Frame(f), got.Frame(f)
		for i := range a {
			sum += a[i].Sub(b[perm[i]]).Norm2()
		}
	}
	rmse := 100 * math.Sqrt(sum/float64(want.N()*want.F())) / want.Diagonal()
	if rmse > 0.01 {
		t.Errorf("assimp plays our FBX at RMSE%% %v of ours", rmse)
	}
	t.Logf("assimp's playback vs ours: RMSE%% %.2g", rmse)
}
