// Package off reads Object File Format meshes (.off), the format of many
// research mesh collections (Princeton, AIM@SHAPE).
//
// A file is an "OFF" header line, the counts line "vertices faces edges"
// (possibly on the header line), one "x y z" line per vertex, then one
// "k i0 … ik-1" line per face with 0-based vertex indices. '#' starts a
// comment. Polygons are kept (mesh.New splits them into triangle fans and
// remembers them). Header variants with colours, normals or texture
// coordinates (COFF, NOFF, STOFF, …) are read and the extra values
// ignored, as are per-face colours; 4D, n-dimensional and binary OFF are
// refused with format.ErrUnsupported.
//
// Importing the package registers ".off" (and ".off.gz") with package
// format as a per-frame mesh format:
//
//	m, err := off.Read(r)
package off
