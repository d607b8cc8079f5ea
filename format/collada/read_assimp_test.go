package collada

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/mesh"
)

// assimpExport converts in to out with `assimp export`, skipping (or
// failing, with MESHRIG_REQUIRE_TOOLS=1) without assimp.
func assimpExport(t *testing.T, in, out string) {
	t.Helper()
	_, err := exec.LookPath("assimp")
	shareddata.RequireTool(t, err == nil, "assimp (Debian package assimp-utils)")
	if b, err := exec.Command("assimp", "export", in, out).CombinedOutput(); err != nil {
		t.Fatalf("assimp export failed: %v\n%s", err, b)
	}
}

// TestReadAssimpExport reads a COLLADA document another tool wrote:
// assimp's export of a rig meshrig wrote (quads, two clips). assimp
// writes a vertex per polygon corner, node matrices with sid "matrix",
// each clip as an animation without animation clips, the same sampler
// and source IDs in every animation, and key times in milliseconds (its
// ticks). Read back, every corner sits on a vertex of the rig, with that
// vertex's weights, under the same skeleton, and every frame of both
// clips is where the rig puts that vertex.
func TestReadAssimpExport(t *testing.T) {
	r := chainRig(t, 4, 16, 8, 6, 2, true)
	dir := t.TempDir()
	ours, theirs := filepath.Join(dir, "ours.dae"), filepath.Join(dir, "assimp.dae")
	if err := format.WriteFile(ours, r, format.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	assimpExport(t, ours, theirs)
	sc, err := format.ReadScene(theirs, format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d := mesh.Diagonal(r.Mesh.Verts)
	// Each corner's vertex in the rig, by rest position.
	of := make([]int, len(sc.Mesh.Verts))
	for i, p := range sc.Mesh.Verts {
		of[i] = -1
		for k, q := range r.Mesh.Verts {
			if p.Dist(q) <= 1e-6*d {
				of[i] = k
			}
		}
		if of[i] < 0 {
			t.Fatalf("vertex %d at %v is no vertex of the rig", i, p)
		}
	}
	if len(sc.Mesh.Tris) != len(r.Mesh.Tris) || sc.Mesh.NumPolys() != r.Mesh.NumPolys() {
		t.Errorf("%d triangles in %d polygons, want %d in %d", len(sc.Mesh.Tris), sc.Mesh.NumPolys(), len(r.Mesh.Tris), r.Mesh.NumPolys())
	}
	got := sc.Rig
	if got.Skeleton.Len() != r.Skeleton.Len() {
		t.Fatalf("%d joints, want %d", got.Skeleton.Len(), r.Skeleton.Len())
	}
	for j, jt := range r.Skeleton.Joints {
		g := got.Skeleton.Joints[j]
		if g.Name != ncname(jt.Name, "") || g.Parent != jt.Parent || g.Head.Dist(jt.Head) > 1e-6*d {
			t.Errorf("joint %d is %+v, want %+v", j, g, jt)
		}
	}
	for i, k := range of {
		if w := weightDist(got.Skin[i], r.Skin[k]); w > 1e-6 {
			t.Fatalf("vertex %d (the rig's %d): weights %+v, want %+v", i, k, got.Skin[i], r.Skin[k])
		}
	}
	if len(got.Clips) != len(r.Clips) {
		t.Fatalf("%d clips, want %d", len(got.Clips), len(r.Clips))
	}
	worst := 0.0
	for c, cl := range r.Clips {
		sq := sc.Sequence.Clips[c]
		if sq.Len() != cl.Frames || !strings.HasSuffix(sq.Name, cl.Name) {
			t.Fatalf("clip %d: %q of %d frames, want %q of %d", c, sq.Name, sq.Len(), cl.Name, cl.Frames)
		}
		for f := 0; f < cl.Frames; f++ {
			want := r.Frame(nil, c, f)
			played := got.Frame(nil, c, f)
			for i, p := range sc.Sequence.FrameInto(nil, sq.Start+f) {
				worst = max(worst, p.Dist(want[of[i]])/d, played[i].Dist(want[of[i]])/d)
			}
		}
		t.Logf("clip %q read as %q at %g fps (written at %g; assimp writes milliseconds)", cl.Name, sq.Name, sq.FPS, cl.FPS)
	}
	if worst > 1e-5 {
		t.Errorf("frames off by up to %.3g·d", worst)
	}
}

// TestReadAssimpBrokenAnimation: assimp's export of a glTF character of
// the shared data (RiggedSimple) has samplers whose sources it did not
// write; reading it says which and where, rather than dropping the
// animation.
func TestReadAssimpBrokenAnimation(t *testing.T) {
	in := shareddata.Path(t, "gltf/RiggedSimple.glb")
	out := filepath.Join(t.TempDir(), "rigged.dae")
	assimpExport(t, in, out)
	_, err := format.ReadScene(out, format.SceneOptions{})
	if err == nil || !strings.HasPrefix(err.Error(), out+":") || !strings.Contains(err.Error(), `<sampler id="`) || !strings.Contains(err.Error(), "no element has that id") {
		t.Errorf("err = %v, want the file, line and sampler whose source is missing", err)
	}
}
