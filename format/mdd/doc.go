// Package mdd reads and writes MDD point caches (LightWave's Motion
// Designer format, also written by Blender, Maya and 3ds Max).
//
// A file is big-endian throughout: int32 frame count, int32 point count,
// one float32 time in seconds per frame, then every frame's points as
// float32 x, y, z. A cache holds positions only: the faces and the rest
// pose come from a mesh file given beside it, and the point count must
// match that mesh's vertex count. The frame rate is read off the times
// when they are evenly spaced.
//
// Importing the package registers ".mdd" (and ".mdd.gz") with package
// format as a point cache:
//
//	frames, fps, err := mdd.Read(r, len(rest.Verts))
package mdd
