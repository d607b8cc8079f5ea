package fbx

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/format/gltf"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/metric"
)

// TestReadBlenderExport reads FBX files another writer made: Blender's
// exports of the shared glTF characters. Each reads to the animation our
// glTF reader samples from the original (Blender writes centimetres:
// positions ×100), within Blender's own resampling — it bakes every
// frame at 24 fps and keys Euler angles, so CesiumMan's frames differ by
// hundredths of a percent of d, RiggedSimple's not at all — and the rig
// read from the FBX replays the file's playback.
//
// Blender takes half a minute here (glTF import, baking, FBX export):
// -short skips it.
func TestReadBlenderExport(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: Blender's conversion takes half a minute; skipping")
	}
	bin, err := exec.LookPath("blender")
	shareddata.RequireTool(t, err == nil, "blender (Debian package blender, with python3-numpy)")
	cases := []struct {
		name  string
		bound float64 // RMSE% of d between the two readings
	}{{"RiggedSimple", 1e-3}, {"CesiumMan", 0.1}}
	dir := t.TempDir()
	args := []string{"-b", "--factory-startup", "--python", filepath.Join("testdata", "blender_gltf_to_fbx.py"), "--"}
	for _, tc := range cases {
		args = append(args, shareddata.Path(t, filepath.Join("gltf", tc.name+".glb")), filepath.Join(dir, tc.name+".fbx"))
	}
	if b, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
		t.Fatalf("blender: %v\n%s", err, b)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := shareddata.Path(t, filepath.Join("gltf", tc.name+".glb"))
			fb, err := ReadScene(os.DirFS(dir), tc.name+".fbx", format.SceneOptions{})
			if err != nil {
				t.Fatal(err)
			}
			gl, err := gltf.ReadScene(os.DirFS(filepath.Dir(src)), tc.name+".glb", format.SceneOptions{})
			if err != nil {
				t.Fatal(err)
			}
			a, b := fb.Sequence, gl.Sequence
			if a.N() != b.N() || a.F() != b.F() || fb.Rig == nil {
				t.Fatalf("FBX: %d vertices × %d frames (rig %v), glTF: %d × %d", a.N(), a.F(), fb.Rig != nil, b.N(), b.F())
			}
			var sum float64
			for f := 0; f < b.F(); f++ {
				fa, fg := a.FrameInto(nil, f), b.FrameInto(nil, f)
				for i := range fg {
					sum += fa[i].Scale(0.01).Sub(fg[i]).Norm2()
				}
			}
			rmse := 100 * math.Sqrt(sum/float64(b.N()*b.F())) / b.Diagonal()
			if rmse > tc.bound {
				t.Errorf("FBX and glTF readings differ by RMSE%% %v", rmse)
			}
			rep, err := metric.Compare(a, fb.Rig)
			if err != nil {
				t.Fatal(err)
			}
			if rep.MaxPercent > 1e-3 {
				t.Errorf("the rig read from Blender's FBX strays from its playback: Max%% %v", rep.MaxPercent)
			}
			t.Logf("FBX vs glTF: RMSE%% %.2g; rig vs playback Max%% %.2g", rmse, rep.MaxPercent)
		})
	}
}
