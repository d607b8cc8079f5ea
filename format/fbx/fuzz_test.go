package fbx

import (
	"errors"
	"reflect"
	"testing"
	"testing/fstest"

	"github.com/meshrig/meshrig/format"
)

// FuzzRead decodes arbitrary bytes: never a panic; what decodes encodes
// and decodes back to the same nodes; a scene that reads is valid and
// reads the same twice. Seeds are tiny hand-made files (the real files
// are kept as plain tests: Go's fuzzer stalls on large seeds).
func FuzzRead(f *testing.F) {
	f.Add(encode(microRig(7400), 1))
	f.Add(encode(microRig(7500), 3))
	f.Add(encode(everyType(7400), 2))
	f.Add(encode(microSurface(), 1))
	f.Add([]byte(Magic + "\xe8\x1c\x00\x00"))
	f.Add(asciiText(microRig(7400)))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := Decode(data)
		if err != nil {
			// ASCII input names a line, binary input an offset.
			var pe *format.ParseError
			if !errors.As(err, &pe) || (pe.Offset < 0 && pe.Line < 1) {
				t.Fatalf("error %v names no place", err)
			}
			return
		}
		again, err := Decode(encode(doc, 0))
		if err != nil {
			t.Fatalf("re-encoded document: %v", err)
		}
		strip(doc.Nodes)
		strip(again.Nodes)
		if !reflect.DeepEqual(doc.Nodes, again.Nodes) {
			t.Fatal("re-encoded document differs")
		}
		fsys := fstest.MapFS{"f.fbx": {Data: data}}
		// A few frames at most: a forged key time must not make the
		// fuzzer sample for minutes.
		opt := format.SceneOptions{Frames: format.FrameRange{First: 1, Last: 4}}
		sc, err := ReadScene(fsys, "f.fbx", opt)
		if err != nil {
			return
		}
		// A file without animation has no Sequence, only its mesh.
		if sc.Sequence != nil {
			if err := sc.Sequence.Validate(); err != nil {
				t.Fatalf("sequence read: %v", err)
			}
		}
		if sc.Rig != nil {
			if err := sc.Rig.Validate(); err != nil {
				t.Fatalf("rig read: %v", err)
			}
		}
		if sc.Skeleton != nil {
			if err := sc.Skeleton.Validate(); err != nil {
				t.Fatalf("skeleton read: %v", err)
			}
			for k := range sc.SkeletonClips {
				if err := sc.SkeletonClips[k].Validate(sc.Skeleton.Len()); err != nil {
					t.Fatalf("skeleton clip read: %v", err)
				}
			}
		}
		sc2, err := ReadScene(fsys, "f.fbx", opt)
		if err != nil || !reflect.DeepEqual(sc.Mesh.Verts, sc2.Mesh.Verts) ||
			(sc.Sequence != nil && !reflect.DeepEqual(sc.Sequence.Frames, sc2.Sequence.Frames)) {
			t.Fatalf("second read differs: %v", err)
		}
	})
}
