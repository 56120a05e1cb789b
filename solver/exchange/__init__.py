"""Models in and out (rank 7): URDF and MJCF import to Composites of blocks, FMU export.

    from_urdf(path, package_dirs=...)   a Robot composite from a URDF file (yourdfpy)
    from_mjcf(path)                     a Robot composite from an MJCF file (MuJoCo's compiler)
    export_fmu(system, path, ...)       an FMI 2.0 FMU (model exchange, co-simulation)
"""
from .fmu import FMUKind, FMUSolver, export_fmu
from .mjcf import from_mjcf
from .packages import example_robot, example_robot_data_dir
from .robot import Robot, UnsupportedWarning
from .spec import Geometry, GeometryKind, GeometryRole, JointLimits, JointType
from .urdf import from_urdf

__all__ = ["FMUKind", "FMUSolver", "Geometry", "GeometryKind", "GeometryRole", "JointLimits", "JointType", "Robot",
           "UnsupportedWarning", "example_robot", "example_robot_data_dir", "export_fmu", "from_mjcf",
           "from_urdf"]
