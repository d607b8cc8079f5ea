// Package seq holds a mesh animation: a rest pose plus frames that share its
// vertices and faces, grouped into named clips.
//
// Readers in format/… build a Sequence; rigging methods in method/… consume
// it. Frames are stored flat, in float32 as the files hold them: vertex i
// of frame f is Frames[f*N+i]; Pos and FrameInto read them as float64.
//
//	s := seq.New(rest)
//	for _, m := range posed {
//		if err := s.AddFrame(m.Verts, name); err != nil { … }
//	}
package seq
