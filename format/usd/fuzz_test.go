package usd

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
)

// FuzzRead reads arbitrary text as a layer: it must return a rig or an
// error, never panic; a rig read is valid, is written as .usdc too, and,
// written again, reads back with the same joints, clips and faces.
func FuzzRead(f *testing.F) {
	tiny, err := os.ReadFile(filepath.Join("testdata", "tiny.usda"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(tiny)
	f.Add([]byte("#usda 1.0\n"))
	f.Add([]byte("#usda 1.0\n(\n defaultPrim = \"Rig\"\n)\ndef SkelRoot \"Rig\" {\n}\n"))
	f.Add([]byte("#usda 1.0\ndef \"x\" { int[] a.timeSamples = { 0: [1, (2, 3)], } rel b = </c> float c.connect = </d.e> }\n"))
	f.Add([]byte("#usda 1.0\ndef \"x\" ( customData = { dictionary d = { string s = \"\\x41\" } } ) { asset a = @@@b@c@@@ }\n"))
	var surf bytes.Buffer
	if err := Write(&surf, tinySurfaced(f), format.WriteOptions{}); err != nil {
		f.Fatal(err)
	}
	f.Add(surf.Bytes())
	var squash bytes.Buffer // sampled half3 scales
	if err := Write(&squash, squashTube(f), format.WriteOptions{}); err != nil {
		f.Fatal(err)
	}
	f.Add(squash.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		if err := got.Validate(); err != nil {
			t.Fatalf("rig read is invalid: %v", err)
		}
		var b bytes.Buffer
		if err := Write(&b, got, format.WriteOptions{}); err != nil {
			t.Fatalf("rig read cannot be written: %v", err)
		}
		if err := WriteUSDC(io.Discard, got, format.WriteOptions{}); err != nil {
			t.Fatalf("rig read cannot be written as usdc: %v", err)
		}
		again, err := Read(&b)
		if err != nil {
			t.Fatalf("written again, it does not read: %v\n%s", err, b.String())
		}
		if again.Skeleton.Len() != got.Skeleton.Len() || len(again.Clips) != len(got.Clips) || len(again.Mesh.Tris) != len(got.Mesh.Tris) {
			t.Fatalf("written again: %d joints, %d clips, %d triangles; read %d, %d, %d", again.Skeleton.Len(), len(again.Clips), len(again.Mesh.Tris),
				got.Skeleton.Len(), len(got.Clips), len(got.Mesh.Tris))
		}
		for j, jt := range got.Skeleton.Joints {
			if again.Skeleton.Joints[j] != jt {
				t.Fatalf("joint %d: %+v, then %+v", j, jt, again.Skeleton.Joints[j])
			}
		}
	})
}

// tinySurfaced is the tiny rig with a surface: UVs per corner, normals
// per vertex, two parts, one textured material.
func tinySurfaced(t testing.TB) *rig.Rig {
	r := tinyRig(t)
	uv := mesh.Attr[[2]float32]{Values: [][2]float32{{0, 0}, {1, 0}, {0, 1}}, Index: make([]int32, 12)}
	nrm := mesh.Attr[[3]float32]{Values: make([][3]float32, 4)}
	for c := range uv.Index {
		uv.Index[c] = int32(c % 3)
	}
	for i, v := range r.Mesh.Verts {
		n := v.Sub(linalg.Vec3{0.25, 0.25, 0.25}).Unit()
		nrm.Values[i] = [3]float32{float32(n[0]), float32(n[1]), float32(n[2])}
	}
	m := mesh.NewMaterial("paint")
	m.BaseColorTexture = &mesh.TextureRef{Scale: 1}
	r.Mesh.Surface = &mesh.Surface{UVs: []mesh.Attr[[2]float32]{uv}, Normals: &nrm, Materials: []mesh.Material{m},
		Images:  []mesh.Image{{Path: "paint.png", MIMEType: "image/png"}},
		Parts:   []mesh.Part{{Name: "a", Material: 0}, {Name: "b", Material: -1}},
		TriPart: []int32{0, 0, 1, 1}}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	return r
}
