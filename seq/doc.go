// Package seq holds a mesh animation: a rest pose plus frames that share its
// vertices and faces, grouped into named clips.
//
// Readers in format/… build a Sequence; rigging methods in method/… consume
// it. Frames are stored flat: vertex i of frame f is Frames[f*N+i].
//
//	s := seq.New(rest)
//	for _, m := range posed {
//		if err := s.AddFrame(m.Verts, name); err != nil { … }
//	}
package seq
