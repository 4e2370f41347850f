"""rlvr.tasks"""
