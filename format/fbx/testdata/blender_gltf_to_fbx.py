# Converts glTF files to FBX with Blender's own importer and exporter
# (headless, one Blender for all), for TestReadBlenderExport.
#   blender -b --factory-startup --python blender_gltf_to_fbx.py -- IN1.glb OUT1.fbx [IN2.glb OUT2.fbx …]
import bpy, sys, numpy

# Blender 3.4's glTF importer still uses numpy.bool, which numpy 1.24
# removed.
if not hasattr(numpy, "bool"):
    numpy.bool = bool
argv = sys.argv[sys.argv.index("--") + 1:]
for src, out in zip(argv[0::2], argv[1::2]):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.gltf(filepath=src)
    bpy.ops.export_scene.fbx(filepath=out, bake_anim=True, add_leaf_bones=False)
