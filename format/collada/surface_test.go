package collada

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"

	_ "github.com/meshrig/meshrig/format/gltf" // CesiumMan, the input
	"github.com/meshrig/meshrig/format/obj"    // the inputs, and assimp's OBJ export read back
)

// oneJoint binds m rigidly to a single joint: enough to write it.
func oneJoint(m *mesh.Mesh) *rig.Rig {
	sk := rig.Skeleton{Joints: []rig.Joint{{Name: "root", Parent: rig.NoParent}}}
	skin := make(rig.Skin, len(m.Verts))
	for i := range skin {
		skin[i].Weight[0] = 1
	}
	return &rig.Rig{Mesh: m, Skeleton: sk, Skin: skin}
}

// TestAssimpReadsSurface writes rigs whose meshes carry UVs, normals and
// materials as COLLADA 1.4.1 and 1.5, has assimp convert each to OBJ, and
// reads that back: every face corner has the input's position and UV
// (within 1e-6, the printed precision), the material names come back in
// usemtl, and the texture file is named in the library (1.4.1; 1.5 keeps
// the colours). Inputs: an OBJ with a UV and
// normal seam and two materials (one textured), and CesiumMan (one
// textured material, UVs per vertex).
func TestAssimpReadsSurface(t *testing.T) {
	_, err := exec.LookPath("assimp")
	shareddata.RequireTool(t, err == nil, "assimp (Debian package assimp-utils)")
	quads, _, err := format.ReadRestMesh(filepath.Join("..", "obj", "testdata", "textured", "textured.obj"))
	if err != nil {
		t.Fatal(err)
	}
	inputs := map[string]*rig.Rig{"textured": oneJoint(quads)}
	if p := filepath.Join(shareddata.Dir(), "gltf", "CesiumMan.glb"); shareddata.Dir() != "" {
		sc, err := format.ReadScene(p, format.SceneOptions{})
		if err != nil {
			t.Fatal(err)
		}
		inputs["CesiumMan"] = sc.Rig
	}
	dir := t.TempDir()
	for _, version := range []string{"1.4.1", "1.5"} {
		for name, r := range inputs {
			t.Run(version+"/"+name, func(t *testing.T) {
				assimpSurface(t, r, filepath.Join(dir, version+"-"+name), version)
			})
		}
	}
}

// assimpSurface writes r as base.dae, has assimp export it as OBJ and
// compares what comes back.
func assimpSurface(t *testing.T, r *rig.Rig, base, version string) {
	name := filepath.Base(base)
	{
		{
			dae := base + ".dae"
			if err := format.WriteFile(dae, r, format.WriteOptions{Version: version}); err != nil {
				t.Fatal(err)
			}
			if len(r.Clips) > 0 { // our own reader takes the extra inputs and parts
				sc, err := format.ReadScene(dae, format.SceneOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if len(sc.Mesh.Verts) != len(r.Mesh.Verts) || len(sc.Mesh.Tris) != len(r.Mesh.Tris) {
					t.Fatalf("read back: %d vertices %d triangles, want %d %d", len(sc.Mesh.Verts), len(sc.Mesh.Tris), len(r.Mesh.Verts), len(r.Mesh.Tris))
				}
			}
			back := base + "-assimp.obj"
			if out, err := exec.Command("assimp", "export", dae, back).CombinedOutput(); err != nil {
				t.Fatalf("assimp failed: %v\n%s", err, out)
			}
			f, err := os.Open(back)
			if err != nil {
				t.Fatal(err)
			}
			got, err := obj.Read(f)
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			m, s := r.Mesh, r.Mesh.Surface
			gs := got.Surface
			if len(got.Tris) != len(m.Tris) || gs == nil || len(gs.UVs) != len(s.UVs) {
				t.Fatalf("assimp: %d triangles, surface %v; want %d triangles with %d UV sets", len(got.Tris), gs != nil, len(m.Tris), len(s.UVs))
			}
			// Triangles come back in order: the parts are contiguous.
			for tr := range m.Tris {
				for k := 0; k < 3; k++ {
					v, w := m.Tris[tr][k], got.Tris[tr][k]
					if d := got.Verts[w].Dist(m.Verts[v]); d > 1e-5 {
						t.Fatalf("triangle %d corner %d at %v, want %v", tr, k, got.Verts[w], m.Verts[v])
					}
					a, b := s.UVs[0].At(tr, k, v), gs.UVs[0].At(tr, k, w)
					if abs32(a[0]-b[0]) > 1e-6 || abs32(a[1]-b[1]) > 1e-6 {
						t.Fatalf("triangle %d corner %d: UV %v back, %v written", tr, k, b, a)
					}
				}
			}
			var names []string
			for _, mt := range gs.Materials {
				names = append(names, mt.Name)
			}
			var want []string
			for _, mt := range s.Materials {
				want = append(want, mt.Name)
			}
			if strings.Join(names, ",") != strings.Join(want, ",") {
				t.Fatalf("materials %q back, %q written", names, want)
			}
			lib, err := os.ReadFile(strings.TrimSuffix(back, ".obj") + ".mtl")
			if err != nil {
				t.Fatal(err)
			}
			if version == "1.5" { // colours only (see materialsOf)
				if strings.HasSuffix(name, "textured") && !strings.Contains(string(lib), "Kd 0.100000001 0.5 0.899999976") {
					t.Fatalf("the plain material's colour is lost:\n%s", lib)
				}
				return
			}
			if !regexp.MustCompile(`(?m)^map_Kd `).Match(lib) {
				t.Fatalf("assimp's library names no diffuse texture:\n%s", lib)
			}
			if strings.HasSuffix(name, "textured") && !strings.Contains(string(lib), "map_Kd checker.png") {
				t.Fatalf("the texture file is not referenced by its name:\n%s", lib)
			}
		}
	}
}

func abs32(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}

// TestReadSurface writes rigs whose meshes carry a surface as COLLADA
// 1.4.1 and 1.5 and reads them back with ReadScene: every triangle corner
// has its UV (T flipped back) and normal within float printing, each
// triangle its part and material by name; 1.4.1 keeps the texture (an
// embedded image's bytes, a file's path).
func TestReadSurface(t *testing.T) {
	quads, _, err := format.ReadRestMesh(filepath.Join("..", "obj", "testdata", "textured", "textured.obj"))
	if err != nil {
		t.Fatal(err)
	}
	inputs := map[string]*rig.Rig{"textured": oneJoint(quads)}
	if shareddata.Dir() != "" {
		sc, err := format.ReadScene(filepath.Join(shareddata.Dir(), "gltf", "CesiumMan.glb"), format.SceneOptions{})
		if err != nil {
			t.Fatal(err)
		}
		inputs["CesiumMan"] = sc.Rig
	}
	dir := t.TempDir()
	for _, version := range []string{"1.4.1", "1.5"} {
		for name, r := range inputs {
			t.Run(version+"/"+name, func(t *testing.T) {
				p := filepath.Join(dir, version+"-"+name+".dae")
				if err := format.WriteFile(p, r, format.WriteOptions{Version: version}); err != nil {
					t.Fatal(err)
				}
				sc, err := format.ReadScene(p, format.SceneOptions{})
				if err != nil {
					t.Fatal(err)
				}
				m, b := r.Mesh, sc.Mesh
				a, s := m.Surface, b.Surface
				if s == nil || len(b.Tris) != len(m.Tris) || len(s.UVs) != len(a.UVs) || s.Normals == nil {
					t.Fatalf("surface %+v, %d triangles back", s, len(b.Tris))
				}
				for tr := range m.Tris {
					for k := 0; k < 3; k++ {
						v := m.Tris[tr][k]
						gu, wu := s.UVs[0].At(tr, k, b.Tris[tr][k]), a.UVs[0].At(tr, k, v)
						if abs32(gu[0]-wu[0]) > 1e-6 || abs32(gu[1]-wu[1]) > 1e-6 {
							t.Fatalf("triangle %d corner %d: UV %v back, %v written", tr, k, gu, wu)
						}
						if a.Normals != nil {
							gn, wn := s.Normals.At(tr, k, b.Tris[tr][k]), a.Normals.At(tr, k, v)
							for c := 0; c < 3; c++ {
								if abs32(gn[c]-wn[c]) > 1e-5 {
									t.Fatalf("triangle %d corner %d: normal %v back, %v written", tr, k, gn, wn)
								}
							}
						}
						if ma, mb := partMaterial(a, tr), partMaterial(s, tr); ma != mb {
							t.Fatalf("triangle %d: material %q back, %q written", tr, mb, ma)
						}
					}
				}
				if version == "1.5" {
					return // colours only
				}
				for k, mt := range s.Materials {
					ref := mt.BaseColorTexture
					want := a.Materials[k].BaseColorTexture
					if (ref == nil) != (want == nil) {
						t.Fatalf("material %q: texture %v back, %v written", mt.Name, ref, want)
					}
					if ref == nil {
						continue
					}
					gi, wi := s.Images[ref.Image], a.Images[want.Image]
					if wi.Path != "" && gi.Path != wi.Path || wi.Path == "" && !bytes.Equal(gi.Data, wi.Data) {
						t.Fatalf("material %q: image %q (%d bytes) back, %q (%d bytes) written", mt.Name, gi.Path, len(gi.Data), wi.Path, len(wi.Data))
					}
				}
			})
		}
	}
}

// partMaterial names triangle t's material ("" for none).
func partMaterial(s *mesh.Surface, t int) string {
	if p := s.Part(t); p >= 0 && s.Parts[p].Material >= 0 {
		return s.Materials[s.Parts[p].Material].Name
	}
	return ""
}
