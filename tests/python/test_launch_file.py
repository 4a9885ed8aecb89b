"""launch/sat_collision.launch.py.

`launch` and `launch_ros` are not on the Python package index, so this cannot run
`ros2 launch` here. Instead:
* the file compiles, and its syntax tree declares exactly the five documented arguments
  and a generate_launch_description function;
* it is executed against small stand-ins of the launch / launch_ros classes it uses,
  written with the real constructors' keyword names (launch_ros Node, DeclareLaunchArgument,
  IfCondition, ...), and the resulting description is checked: the node and its params
  file / use_sim_time / log level / remappings, and RViz2 with the installed config under
  IfCondition(use_rviz);
* the node binary is started with the command line launch_ros builds from that
  description (user arguments, then --ros-args with name, namespace, both params files,
  the `/**` use_sim_time file and every remapping) and must start and stop cleanly;
* where the real launch_ros is importable (a regular ROS 2 install), the real classes
  build the description too.
"""

import ast
import importlib.util
import os
import py_compile
import re
import sys
import types

import pytest
import yaml

from satpkg_support import ROOT, Proc, binary, namespace

LAUNCH = ROOT / 'launch' / 'sat_collision.launch.py'
ARGUMENTS = {'params_file', 'namespace', 'use_sim_time', 'use_rviz', 'log_level'}


def test_compiles(tmp_path):
    py_compile.compile(str(LAUNCH), cfile=str(tmp_path / 'launch.pyc'), doraise=True)


def test_declares_exactly_the_documented_arguments():
    tree = ast.parse(LAUNCH.read_text(), filename=str(LAUNCH))
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    assert 'generate_launch_description' in functions
    assert not functions['generate_launch_description'].args.args
    declared = []
    configs = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            first = node.args[0] if node.args else None
            if isinstance(first, ast.Constant):
                if node.func.id == 'DeclareLaunchArgument':
                    declared.append(first.value)
                elif node.func.id == 'LaunchConfiguration':
                    configs.add(first.value)
    assert sorted(declared) == sorted(ARGUMENTS)
    assert configs == ARGUMENTS, 'every argument is used, and only declared ones'
    imported = {(n.module, a.name) for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
                for a in n.names}
    assert ('launch_ros.actions', 'Node') in imported
    assert ('launch.conditions', 'IfCondition') in imported


# --- stand-ins of the launch API (keyword names as in launch / launch_ros) --------------

class Sub:
    """Base of the substitution stand-ins."""

    def __eq__(self, other):
        return type(self) is type(other) and vars(self) == vars(other)

    def __repr__(self):
        return f'{type(self).__name__}({vars(self)})'


class LaunchConfiguration(Sub):
    def __init__(self, variable_name, *, default=None):
        self.name, self.default = variable_name, default


class PathJoinSubstitution(Sub):
    def __init__(self, substitutions):
        self.parts = list(substitutions)


class FindPackageShare(Sub):
    def __init__(self, package):
        self.package = package


class ParameterValue(Sub):
    def __init__(self, value, *, value_type=None):
        self.value, self.value_type = value, value_type


class IfCondition:
    def __init__(self, predicate_expression):
        self.predicate = predicate_expression


class DeclareLaunchArgument:
    def __init__(self, name, *, default_value=None, description=None, choices=None, **kw):
        assert not kw, kw
        self.name, self.default_value = name, default_value
        self.description, self.choices = description, choices


class Node:
    def __init__(self, *, executable, package=None, name=None, namespace=None,
                 exec_name=None, parameters=None, remappings=None, ros_arguments=None,
                 arguments=None, condition=None, output='log', emulate_tty=False, **kw):
        assert not kw, f'not a launch_ros Node / ExecuteProcess argument: {kw}'
        self.__dict__.update(locals())
        del self.__dict__['self'], self.__dict__['kw']


class LaunchDescription:
    def __init__(self, initial_entities=None):
        self.entities = list(initial_entities or [])


def _stub_modules():
    def module(name, **attrs):
        m = types.ModuleType(name)
        m.__dict__.update(attrs)
        return m

    return {
        'launch': module('launch', LaunchDescription=LaunchDescription),
        'launch.actions': module('launch.actions', DeclareLaunchArgument=DeclareLaunchArgument),
        'launch.conditions': module('launch.conditions', IfCondition=IfCondition),
        'launch.substitutions': module('launch.substitutions',
                                       LaunchConfiguration=LaunchConfiguration,
                                       PathJoinSubstitution=PathJoinSubstitution),
        'launch_ros': module('launch_ros'),
        'launch_ros.actions': module('launch_ros.actions', Node=Node),
        'launch_ros.parameter_descriptions': module('launch_ros.parameter_descriptions',
                                                    ParameterValue=ParameterValue),
        'launch_ros.substitutions': module('launch_ros.substitutions',
                                           FindPackageShare=FindPackageShare),
    }


def _load(monkeypatch=None):
    if monkeypatch is not None:
        for name, mod in _stub_modules().items():
            monkeypatch.setitem(sys.modules, name, mod)
    spec = importlib.util.spec_from_file_location('sat_collision_launch', LAUNCH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _readme_topics():
    readme = (ROOT / 'README.md').read_text()
    return set(re.findall(r'^\| `([a-z_]+)` \| `[a-z_]+/', readme, re.M))


def test_description_against_launch_api_stand_ins(monkeypatch):
    mod = _load(monkeypatch)
    ld = mod.generate_launch_description()
    args = {e.name: e for e in ld.entities if isinstance(e, DeclareLaunchArgument)}
    assert set(args) == ARGUMENTS
    share = FindPackageShare('sat_collision')
    assert args['params_file'].default_value == PathJoinSubstitution(
        [share, 'config', 'sat_collision.yaml'])
    assert args['namespace'].default_value == ''
    assert args['use_sim_time'].default_value == 'false'
    assert args['use_rviz'].default_value == 'false'
    assert args['log_level'].default_value == 'info'
    assert all(a.description for a in args.values())

    nodes = [e for e in ld.entities if isinstance(e, Node)]
    (node,) = [n for n in nodes if n.package == 'sat_collision']
    (rviz,) = [n for n in nodes if n.package == 'rviz2']

    assert node.executable == 'sat_collision_node' and node.name == 'sat_collision_node'
    assert node.namespace == LaunchConfiguration('namespace')
    assert node.condition is None
    params_file, overrides = node.parameters
    assert params_file == LaunchConfiguration('params_file')
    assert overrides == {'use_sim_time': ParameterValue(LaunchConfiguration('use_sim_time'),
                                                        value_type=bool)}
    assert node.arguments == ['--ros-args', '--log-level', LaunchConfiguration('log_level')]
    # Remappings: every topic and the service of the README's table, by relative name.
    remapped = [a for a, _ in node.remappings]
    assert sorted(remapped) == sorted(_readme_topics())
    assert all(not a.startswith('/') for a in remapped)

    assert rviz.executable == 'rviz2'
    assert isinstance(rviz.condition, IfCondition)
    assert rviz.condition.predicate == LaunchConfiguration('use_rviz')
    assert rviz.namespace == LaunchConfiguration('namespace')
    d = rviz.arguments.index('-d')
    assert rviz.arguments[d + 1] == PathJoinSubstitution([share, 'config', 'sat_collision.rviz'])

    # What the launch file names exists: the installed files and the binary.
    for rel in ('config/sat_collision.yaml', 'config/sat_collision.rviz'):
        assert (ROOT / rel).is_file()
    cargo = (ROOT / 'Cargo.toml').read_text()
    assert 'name = "sat_collision_node"' in cargo


def test_description_with_the_real_launch_ros():
    pytest.importorskip('launch_ros', reason='launch_ros is not installed (no PyPI wheel)')
    from launch import LaunchDescription as RealLaunchDescription
    from launch.actions import DeclareLaunchArgument as RealDeclare

    mod = _load()
    ld = mod.generate_launch_description()
    assert isinstance(ld, RealLaunchDescription)
    names = {e.name for e in ld.entities if isinstance(e, RealDeclare)}
    assert names == ARGUMENTS


def _evaluate(value, configs, share):
    """A stand-in substitution turned into the string launch would make of it."""
    if isinstance(value, str):
        return value
    if isinstance(value, LaunchConfiguration):
        return configs[value.name]
    if isinstance(value, FindPackageShare):
        assert value.package == 'sat_collision'
        return str(share)
    if isinstance(value, PathJoinSubstitution):
        return os.path.join(*(_evaluate(p, configs, share) for p in value.parts))
    raise AssertionError(f'cannot evaluate {value!r}')


@pytest.mark.parametrize('use_sim_time', ['false', 'true'])
def test_node_accepts_the_command_line_launch_would_give_it(monkeypatch, tmp_path, use_sim_time):
    """Run the node with the arguments launch_ros builds from this description:
    user arguments first, then a second --ros-args section with the node name, the
    namespace, the params file, the {'use_sim_time': ...} dict written as a `/**`
    params file, and every remapping rule."""
    mod = _load(monkeypatch)
    ld = mod.generate_launch_description()
    (node,) = [e for e in ld.entities if isinstance(e, Node) and e.package == 'sat_collision']
    ns = namespace(f'launch_{use_sim_time}')
    configs = {'params_file': None, 'namespace': ns, 'use_sim_time': use_sim_time,
               'use_rviz': 'false', 'log_level': 'debug'}
    args = {e.name: e for e in ld.entities if isinstance(e, DeclareLaunchArgument)}
    configs['params_file'] = _evaluate(args['params_file'].default_value, configs, ROOT)

    ros_args = ['-r', f'__node:={node.name}', '-r', f'__ns:={ns}']
    for p in node.parameters:
        if isinstance(p, dict):
            values = {}
            for k, v in p.items():
                assert isinstance(v, ParameterValue) and v.value_type is bool
                values[k] = yaml.safe_load(_evaluate(v.value, configs, ROOT))
            path = tmp_path / 'launch_params.yaml'
            path.write_text(yaml.safe_dump({'/**': {'ros__parameters': values}}))
            ros_args += ['--params-file', str(path)]
        else:
            ros_args += ['--params-file', _evaluate(p, configs, ROOT)]
    for a, b in node.remappings:
        ros_args += ['-r', f'{a}:={b}']
    cmd = [binary(node.executable)] + [_evaluate(a, configs, ROOT) for a in node.arguments] \
        + ['--ros-args'] + ros_args
    with Proc(cmd) as proc:
        proc.wait_for(r'\bstarted: ', timeout=30)
        assert proc.stop() == 0, proc.output
    assert 'invalid parameter' not in proc.output
