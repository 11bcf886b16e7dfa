"""Recommendations: the recommender, its cached tf-idf matrix and the linear SVM it trains."""
