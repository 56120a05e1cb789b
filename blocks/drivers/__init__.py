"""Kinematic drivers on joint flanges, named as in the MSL:
``rotational.Position/Speed/Accelerate`` (``Modelica.Mechanics.Rotational.Sources``) and
``translational.Position/Speed/Accelerate`` (``Modelica.Mechanics.Translational.Sources``)::

    from jourdain.blocks.drivers import rotational
    drive = rotational.Position(exact=True)     # phi_ref in, tau out
"""
from . import rotational, translational
from .base import Driver, Level

__all__ = ["Driver", "Level", "rotational", "translational"]
