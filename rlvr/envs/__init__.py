"""rlvr.envs"""
