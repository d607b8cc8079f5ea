// Package pc2 reads and writes PC2 point caches, the vertex-animation
// cache of 3ds Max's PointCache2 modifier and Blender's Mesh Cache
// modifier.
//
// A file is a 32-byte little-endian header — the signature
// "POINTCACHE2\0", int32 version 1, int32 point count, float32 start
// frame, float32 sample rate, int32 sample count — then every sample's
// points as float32 x, y, z. A cache holds positions only: the faces and
// the rest pose come from a mesh file given beside it, and the point
// count must match that mesh's vertex count.
//
// The sample rate is not a rate in time: it is the spacing of samples in
// scene frames (1 = a sample every frame, 0.5 = two per frame, 2 = every
// other frame; Blender plays sample (frame − start) / rate). PC2 carries
// no scene frame rate, so Read assumes the common 30 fps and reports
// 30 / rate samples per second; WriteFPS stores the inverse.
//
// Importing the package registers ".pc2" (and ".pc2.gz") with package
// format as a point cache:
//
//	frames, fps, err := pc2.Read(r, len(rest.Verts))
package pc2
